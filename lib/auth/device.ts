// Device cookies (OWASP's "slow down online guessing attacks with device cookies"): a browser that
// signed in to an account keeps a signed cookie naming the account and a random nonce. Its later
// attempts on that account are throttled on that device alone, so a flood of wrong guesses from
// elsewhere slows only the clients that never signed in, never the owner's own browser.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";

export const DEVICE_COOKIE = "finca_device";
/** A device stays known for a year after its last sign-in. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

const signature = (secret: string, payload: string) =>
  createHmac("sha256", `finca device cookie v1\n${secret}`).update(payload).digest("base64url");

/** A new device cookie's value for the account `email` (normalised), signed with `secret`. */
export function newDeviceCookie(secret: string, email: string): string {
  const payload = Buffer.from(JSON.stringify({ e: email, n: randomBytes(16).toString("base64url") })).toString(
    "base64url",
  );
  return `${payload}.${signature(secret, payload)}`;
}

/** What a device cookie says: whose it is, and the device's nonce. */
const DeviceClaim = z.object({ e: z.string(), n: z.string().regex(/^[\w-]{22}$/) });

/** The device's nonce when `cookie` is a device cookie of ours for `email`, else null. */
export function knownDevice(secret: string, cookie: string | null | undefined, email: string): string | null {
  const [payload, signed, ...rest] = (cookie ?? "").split(".");
  if (!payload || !signed || rest.length) return null;
  const expected = Buffer.from(signature(secret, payload));
  const given = Buffer.from(signed);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const device = DeviceClaim.safeParse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
    return device.success && device.data.e === email ? device.data.n : null;
  } catch {
    return null;
  }
}

/** A cookie's value from a Cookie header, or null. */
export function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}
