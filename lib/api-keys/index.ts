// API keys: created (shown once), stored as a SHA-256 hash, listed by their visible start, revoked.
import { and, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { containsPattern, preparedStatement, schema, type Db, type DbOrTx } from "@/lib/db";
import type { Mode } from "@/lib/domain";
import { generateApiKey, hashApiKey, parseApiKey, visibleStart, type ParsedKey } from "./format";

export { generateApiKey, parseApiKey, hashApiKey, visibleStart };

const { apiKeys } = schema;

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type ApiKeySummary = Omit<ApiKeyRow, "keyHash">;

const summaryColumns = {
  id: apiKeys.id,
  partnerId: apiKeys.partnerId,
  mode: apiKeys.mode,
  name: apiKeys.name,
  visibleStart: apiKeys.visibleStart,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
  expiresAt: apiKeys.expiresAt,
};

/** Creates a key; the returned `key` is the only time the secret exists outside the caller. */
export async function createApiKey(
  db: DbOrTx,
  input: { partnerId: string; mode: Mode; name: string; key?: string },
): Promise<{ key: string; apiKey: ApiKeySummary }> {
  const key = input.key ?? generateApiKey(input.mode);
  const [apiKey] = await db
    .insert(apiKeys)
    .values({
      partnerId: input.partnerId,
      mode: input.mode,
      name: input.name,
      keyHash: hashApiKey(key),
      visibleStart: visibleStart(key),
    })
    .returning(summaryColumns);
  return { key, apiKey: apiKey! };
}

/** This exact key, active and owned by the partner, whatever an earlier state was (operator bootstrap). */
export async function ensureApiKey(db: DbOrTx, input: { partnerId: string; name: string; key: ParsedKey }): Promise<void> {
  const { partnerId, name, key } = input;
  await db
    .insert(apiKeys)
    .values({ partnerId, mode: key.mode, name, keyHash: hashApiKey(key.key), visibleStart: visibleStart(key.key) })
    .onConflictDoUpdate({ target: apiKeys.keyHash, set: { partnerId, mode: key.mode, revokedAt: null } });
}

/** Who a valid key speaks for; `visibleStart` names the key in logs without revealing it. */
export type Principal = { apiKeyId: string; partnerId: string; mode: Mode; visibleStart: string; lastUsedAt: Date | null };

/** Not revoked, and not past the expiry a roll gave it (database clock, like every other timestamp check). */
const isActive = () => and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)));

const activeKeyByHash = preparedStatement("authenticate_api_key", (db) =>
  db
    .select({ apiKeyId: apiKeys.id, partnerId: apiKeys.partnerId, mode: apiKeys.mode, visibleStart: apiKeys.visibleStart, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, sql.placeholder("hash")), isActive()))
    .limit(1),
);

/** The active key's owner, or null for anything malformed, unknown, revoked or expired. */
export async function authenticateApiKey(db: Db, key: string): Promise<Principal | null> {
  const parsed = parseApiKey(key);
  if (!parsed) return null;
  const [row] = await activeKeyByHash(db).execute({ hash: hashApiKey(parsed.key) });
  return row ?? null;
}

const LAST_USED_GRANULARITY_MS = 60_000;

/** Records use at most once a minute per key, so the hot path rarely writes. */
export async function touchApiKey(db: DbOrTx, principal: Principal, now = new Date()): Promise<void> {
  if (principal.lastUsedAt && now.getTime() - principal.lastUsedAt.getTime() < LAST_USED_GRANULARITY_MS) return;
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(apiKeys.id, principal.apiKeyId),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now.getTime() - LAST_USED_GRANULARITY_MS))),
      ),
    );
}

export async function listApiKeys(db: DbOrTx, filter: { partnerId?: string; mode?: Mode; search?: string } = {}) {
  const conditions = [
    filter.partnerId ? eq(apiKeys.partnerId, filter.partnerId) : undefined,
    filter.mode ? eq(apiKeys.mode, filter.mode) : undefined,
    filter.search ? sql`${apiKeys.visibleStart} ilike ${containsPattern(filter.search)}` : undefined,
  ].filter(Boolean);
  return db
    .select(summaryColumns)
    .from(apiKeys)
    .where(and(...conditions))
    .orderBy(desc(apiKeys.createdAt));
}

/** Revokes a key; scoped to a partner unless called by an operator (partnerId omitted). */
export async function revokeApiKey(db: DbOrTx, id: string, partnerId?: string): Promise<ApiKeySummary | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt), partnerId ? eq(apiKeys.partnerId, partnerId) : undefined))
    .returning(summaryColumns);
  return row ?? null;
}

/** How long a rolled key keeps working, as offered to partners (Stripe's choices). */
export const ROLL_EXPIRIES = { now: 0, "1h": 3600, "24h": 86_400, "3d": 3 * 86_400, "7d": 7 * 86_400 } as const;
export type RollExpiry = keyof typeof ROLL_EXPIRIES;

/**
 * Stripe's "roll key": a new key with the same name and mode, and the old one expiring
 * `expiresInSeconds` from now (never later than an expiry it already had), so a partner can deploy
 * the new key before the old one stops. Null when the key is not the partner's or not active.
 */
export async function rollApiKey(
  db: DbOrTx,
  input: { id: string; partnerId: string; expiresInSeconds: number },
): Promise<{ key: string; apiKey: ApiKeySummary; rolled: ApiKeySummary } | null> {
  return db.transaction(async (tx) => {
    const expiresAt = sql`least(coalesce(${apiKeys.expiresAt}, 'infinity'::timestamptz), now() + make_interval(secs => ${input.expiresInSeconds}))`;
    const [rolled] = await tx
      .update(apiKeys)
      .set({ expiresAt })
      .where(and(eq(apiKeys.id, input.id), eq(apiKeys.partnerId, input.partnerId), isActive()))
      .returning(summaryColumns);
    if (!rolled) return null;
    const created = await createApiKey(tx, { partnerId: rolled.partnerId, mode: rolled.mode, name: rolled.name });
    return { ...created, rolled };
  });
}

/** Whether a listed key still authenticates at `now` (the portal's active and inactive lists). */
export const keyIsActive = (key: Pick<ApiKeySummary, "revokedAt" | "expiresAt">, now: Date) => !key.revokedAt && (!key.expiresAt || key.expiresAt > now);
