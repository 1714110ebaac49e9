// API keys: created (shown once), stored as a SHA-256 hash, listed by their visible start, revoked.
import { and, desc, eq, gt, isNull, or, sql, type SQL } from "drizzle-orm";
import { bare, containsPattern, preparedSql, rowsOf, schema, type Db, type DbOrTx } from "@/lib/db";
import { DomainError, isUuid, type Mode } from "@/lib/domain";
import { hasLiveAccess, liveAccessApproved } from "@/lib/partners/live";
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

/** A key as people (and the security history) name it: its name and visible start, never more. */
export const keyNamed = (key: { name: string; visibleStart: string }) => `${key.name} (${key.visibleStart}…)`;

/** Creates a key; the returned `key` is the only time the secret exists outside the caller. */
export async function createApiKey(
  db: DbOrTx,
  input: { partnerId: string; mode: Mode; name: string; key?: string },
): Promise<{ key: string; apiKey: ApiKeySummary }> {
  if (input.mode === "live" && !(await hasLiveAccess(db, input.partnerId)))
    throw new DomainError(
      "forbidden",
      "Live keys need live access: an owner of the organisation requests it on the API keys page, and Finca approves it.",
    );
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
export async function ensureApiKey(
  db: DbOrTx,
  input: { partnerId: string; name: string; key: ParsedKey },
): Promise<void> {
  const { partnerId, name, key } = input;
  await db
    .insert(apiKeys)
    .values({ partnerId, mode: key.mode, name, keyHash: hashApiKey(key.key), visibleStart: visibleStart(key.key) })
    .onConflictDoUpdate({ target: apiKeys.keyHash, set: { partnerId, mode: key.mode, revokedAt: null } });
}

/** Who a valid key speaks for; `visibleStart` names the key in logs without revealing it. */
export type Principal = { apiKeyId: string; partnerId: string; mode: Mode; visibleStart: string };

/**
 * Not revoked, not past the expiry a roll gave it (database clock, like every other timestamp
 * check), and, for a live key, of an organisation with live access (until an operator approves it,
 * a live key answers as an unknown one).
 */
const isActive = () =>
  and(
    isNull(apiKeys.revokedAt),
    or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)),
    or(eq(apiKeys.mode, "test"), liveAccessApproved(apiKeys.partnerId)),
  );

/** Whether the key may still be used (a long-lived stream asks again as it runs). */
export async function apiKeyIsActive(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), isActive()));
  return Boolean(row);
}

/** The authenticated key's row inside its statement: its scope's columns, for what a caller folds in. */
export interface KeyRow {
  /** The WITH item holding the key's one row (none when the key does not authenticate). */
  from: SQL;
  partnerId: SQL;
  mode: SQL;
}

/** What a caller folds into the statement that authenticates a key: WITH items and columns over its row. */
export interface Alongside {
  with?: SQL;
  columns?: SQL;
}

const KEY = sql`${sql.identifier("api_key")}`;
const keyRow: KeyRow = { from: KEY, partnerId: sql`${KEY}.partner_id`, mode: sql`${KEY}.mode` };
const LAST_USED_GRANULARITY_SECONDS = 60;

/**
 * The statement that authenticates a key (by its hash: revoked or expired keys, by the database's
 * clock, yield no row), records its use at most once a minute, and runs whatever the caller folds
 * in over its row; built once per shape of `alongside`.
 */
function authenticationSql(alongside: Alongside): SQL {
  return sql`
    with ${KEY} as (
      select ${apiKeys.id} as id, ${apiKeys.partnerId} as partner_id, ${apiKeys.mode} as mode,
             ${apiKeys.visibleStart} as visible_start, ${apiKeys.lastUsedAt} as last_used_at
      from ${apiKeys} where ${and(eq(apiKeys.keyHash, sql.placeholder("hash")), isActive())}
    ),
    touched as (
      update ${apiKeys} set ${bare(apiKeys.lastUsedAt)} = now() from ${KEY}
      where ${apiKeys.id} = ${KEY}.id
        and (${KEY}.last_used_at is null
             or ${KEY}.last_used_at < now() - make_interval(secs => ${LAST_USED_GRANULARITY_SECONDS}))
    )${alongside.with ? sql`, ${alongside.with}` : sql``}
    select ${KEY}.id, ${KEY}.partner_id, ${KEY}.mode, ${KEY}.visible_start
      ${alongside.columns ? sql`, ${alongside.columns}` : sql``}
    from ${KEY}`;
}

/** A key's owner, and its statement's row with the columns folded in. */
export interface Authenticated {
  principal: Principal;
  row: Record<string, unknown>;
}

/**
 * An authentication statement with something folded in (one round trip for both): `name` names
 * its shape, `alongside` builds it over the key's row, with `sql.placeholder`s for values that
 * `run` then gives.
 */
/** The key's own columns of the authentication statement's row (the rest are what `alongside` adds). */
type KeyColumns = { id: string; partner_id: string; mode: Mode; visible_start: string };

export function authenticationWith(name: string, alongside: (key: KeyRow) => Alongside) {
  const statement = preparedSql(`authenticate_${name}`, () => authenticationSql(alongside(keyRow)));
  return async (db: Db, key: string, values: Record<string, unknown> = {}): Promise<Authenticated | null> => {
    const parsed = parseApiKey(key);
    if (!parsed) return null;
    const result = await statement(db).execute({ ...values, hash: hashApiKey(parsed.key) });
    const [row] = rowsOf<KeyColumns & Record<string, unknown>>(result);
    if (!row) return null;
    const principal = {
      apiKeyId: row.id,
      partnerId: row.partner_id,
      mode: row.mode,
      visibleStart: row.visible_start,
    };
    return { principal, row };
  };
}

const authenticateAlone = authenticationWith("key", () => ({}));

/** The active key's owner, or null for anything malformed, unknown, revoked or expired. */
export async function authenticateApiKey(db: Db, key: string): Promise<Principal | null> {
  return (await authenticateAlone(db, key))?.principal ?? null;
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
  // A form's id is anyone's to craft: only a UUID can name a key (PostgreSQL would refuse the rest).
  if (!isUuid(id)) return null;
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
  if (!isUuid(input.id)) return null;
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
export const keyIsActive = (key: Pick<ApiKeySummary, "revokedAt" | "expiresAt">, now: Date) =>
  !key.revokedAt && (!key.expiresAt || key.expiresAt > now);
