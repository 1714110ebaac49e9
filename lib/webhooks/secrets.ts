import { randomBytes } from "node:crypto";

/** `whsec_` + base64 of 32 random bytes, the format Standard Webhooks libraries expect. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}
