// The writes of API keys a member makes (the portal's Keys page): each checks the member's role,
// spends the write on its budget, then makes the change and its row in the security history in one
// transaction, as lib/webhooks/commands.ts does for endpoints. Inputs are parsed by the caller with
// the schemas here.
import { z } from "zod";
import { hasControl, MODES } from "@/lib/domain";
import type { DbOrTx } from "@/lib/db";
import { audited, mayWrite, type AuditAction, type AuditEntry, type AuditLog, type Writer } from "@/lib/audit";
import {
  createApiKey,
  keyNamed,
  revokeApiKey,
  rollApiKey,
  ROLL_EXPIRIES,
  type ApiKeySummary,
  type RollExpiry,
} from "./index";

export const CreateKeyBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, "Give the key a name, e.g. the system that will use it.")
    .max(100, "At most 100 characters.")
    .refine((name) => !hasControl(name), "No control characters."),
  mode: z.enum(MODES),
});
export type CreateKeyInput = z.infer<typeof CreateKeyBody>;

export const RollKeyBody = z.strictObject({
  id: z.string(),
  expires_in: z.enum(Object.keys(ROLL_EXPIRIES) as [RollExpiry, ...RollExpiry[]], {
    error: "Choose when the old key stops working.",
  }),
});
export type RollKeyInput = z.infer<typeof RollKeyBody>;

/** What the key commands need: the database and the history's log. */
export interface KeyDeps {
  db: DbOrTx;
  logger: AuditLog;
}

/** A history entry about `key`, its mode in the detail. */
const entry = (key: ApiKeySummary, action: AuditAction, detail: Record<string, string> = {}): AuditEntry => ({
  partnerId: key.partnerId,
  action,
  target: keyNamed(key),
  detail: { mode: key.mode, ...detail },
});

/** A new key of the partner, shown once; a live key is refused before live access (lib/api-keys). */
export async function createKey(
  deps: KeyDeps,
  partnerId: string,
  by: Writer,
  input: CreateKeyInput,
): Promise<{ key: string; apiKey: ApiKeySummary }> {
  await mayWrite(by, "keys");
  return audited(deps, by.actor, async (tx) => {
    const made = await createApiKey(tx, { partnerId, mode: input.mode, name: input.name });
    return { result: made, entry: entry(made.apiKey, "api_key.created") };
  });
}

/**
 * A new key now, the old one until the chosen expiry; null when `id` names no active key of the
 * partner (revoked, expired or rolled meanwhile).
 */
export async function rollKey(deps: KeyDeps, partnerId: string, by: Writer, input: RollKeyInput) {
  await mayWrite(by, "keys");
  return audited(deps, by.actor, async (tx) => {
    const expiresInSeconds = ROLL_EXPIRIES[input.expires_in];
    const rolled = await rollApiKey(tx, { id: input.id, partnerId, expiresInSeconds });
    return {
      result: rolled && { ...rolled, oldKeyExpiresAt: rolled.rolled.expiresAt! },
      entry:
        rolled &&
        entry(rolled.rolled, "api_key.rolled", {
          new_key: `${rolled.apiKey.visibleStart}…`,
          old_key_expires_at: rolled.rolled.expiresAt!.toISOString(),
        }),
    };
  });
}

/** Requests with the key are refused at once; null when `id` names no active key of the partner. */
export async function revokeKey(
  deps: KeyDeps,
  partnerId: string,
  by: Writer,
  id: string,
): Promise<ApiKeySummary | null> {
  await mayWrite(by, "keys");
  return audited(deps, by.actor, async (tx) => {
    const key = await revokeApiKey(tx, id, partnerId);
    return { result: key, entry: key && entry(key, "api_key.revoked") };
  });
}
