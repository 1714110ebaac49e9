// The security history (audit trail): one append-only row per security-relevant change, written in
// the transaction of the change, so a change that fails leaves no row and one that commits always
// has its row (and then its log line). A row is built from named fields only: a key or a secret has
// no field to go in (actors and targets name a key by its visible start).
import { and, desc, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import { pruneOlderThan, schema, type Db, type DbOrTx } from "@/lib/db";
import { authorize, type Permission, type Role, type WriteBudget } from "@/lib/domain";

const { auditEvents, partners } = schema;
export type AuditRow = typeof auditEvents.$inferSelect;
/** A row as the Activity pages show it: with its partner's name (null for an operator's own). */
export type AuditListed = AuditRow & { partnerName: string | null };

/** What is recorded; the part before the dot is its area (the Activity pages filter by either). */
export const AUDIT_ACTIONS = [
  "sign_in.succeeded",
  "sign_in.failed",
  "sign_out",
  "session.ended",
  "session.ended_all_others",
  "password.changed",
  "password.reset",
  "password.reset_by_email",
  "invitation.sent",
  "invitation.accepted",
  "invitation.withdrawn",
  "member.removed",
  "member.role_changed",
  "user.created",
  "user.disabled",
  "user.enabled",
  "user.sessions_ended",
  "api_key.created",
  "api_key.rolled",
  "api_key.revoked",
  "webhook_endpoint.created",
  "webhook_endpoint.updated",
  "webhook_endpoint.enabled",
  "webhook_endpoint.disabled",
  "webhook_endpoint.deleted",
  "webhook_secret.rotated",
  "webhook_secret.expired",
  "webhook.test_sent",
  "webhook.replayed",
  "webhook.replayed_failed",
  "register.refresh_requested",
  "live_access.requested",
  "live_access.approved",
  "live_access.refused",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_AREAS = [...new Set(AUDIT_ACTIONS.map((a) => a.split(".")[0]!))];

/** Who acted: a user (their email as it read then, and address), an API key (its visible start). */
export interface Actor {
  userId: string | null;
  label: string;
  address: string | null;
  /** A member's role, for the commands that check it; none for a key or an operator's CLI. */
  role?: Role;
}

export const userActor = (user: { id: string; email: string; role: Role }, address: string | null): Actor => ({
  userId: user.id,
  label: user.email,
  address,
  role: user.role,
});
/** Who makes a write (for the security history) and the budget it is counted on (spent first). */
export interface Writer {
  actor: Actor;
  budget: WriteBudget;
}

/**
 * A member's role is checked by the command itself, whoever calls it (`forbidden` without
 * `permission`); a key or an operator's CLI carries no role and acts with its partner's access.
 */
export const authorizeActor = (actor: Actor, permission: Permission): void => {
  if (actor.role) authorize(actor.role, permission);
};

/** Role checked, then the budget spent (a refusal changes and counts nothing more). */
export const mayWrite = async (by: Writer, permission: Permission): Promise<void> => {
  authorizeActor(by.actor, permission);
  await by.budget();
};

export const keyActor = (visibleStart: string): Actor => ({
  userId: null,
  label: `API key ${visibleStart}…`,
  address: null,
});

export interface AuditEntry {
  partnerId: string | null;
  action: AuditAction;
  /** What was acted on, as people read it: a key's name and visible start, an endpoint's URL, an email. */
  target?: string | null;
  detail?: Record<string, string | number | boolean | null>;
}

/** Where each committed row is told (one log line each). */
export interface AuditLog {
  info(fields: Record<string, unknown>, message: string): void;
}

/** Records one change, in the change's own transaction. */
export async function recordAudit(tx: DbOrTx, actor: Actor, entry: AuditEntry): Promise<AuditRow> {
  const [row] = await tx
    .insert(auditEvents)
    .values({
      partnerId: entry.partnerId,
      actorUserId: actor.userId,
      actor: actor.label.slice(0, 320),
      action: entry.action,
      target: entry.target?.slice(0, 500) ?? null,
      address: actor.address?.slice(0, 100) ?? null,
      detail: entry.detail ?? null,
    })
    .returning();
  return row!;
}

/** A row's log line, after its transaction committed. */
export function tell(log: AuditLog, row: AuditRow): void {
  const { id, at, partnerId, actor, action, target, address, detail } = row;
  log.info({ audit: { id, at, partnerId, actor, action, target, address, detail } }, "audit");
}

/**
 * `change` and its row in one transaction: recorded when `change` says what it did (an entry),
 * nothing when it did nothing (null); the log line after the commit. A write budget is spent
 * before (so a request never holds two pooled connections at once).
 */
export async function audited<T>(
  deps: { db: DbOrTx; logger: AuditLog },
  actor: Actor,
  change: (tx: DbOrTx) => Promise<{ result: T; entry: AuditEntry | null }>,
): Promise<T> {
  const { result, row } = await deps.db.transaction(async (tx) => {
    const made = await change(tx);
    return { result: made.result, row: made.entry && (await recordAudit(tx, actor, made.entry)) };
  });
  if (row) tell(deps.logger, row);
  return result;
}

export interface AuditFilter {
  /** One partner's history; undefined: everyone's (the admin console). */
  partnerId?: string;
  /** An action, or an area (`api_key`: every action under it). */
  action?: string;
  /** The id of the last row of the page before. */
  before?: string;
  limit?: number;
}

/** Newest first (rows of one instant in the order they were written), a page at a time (keyset on time and seq). */
export async function auditPage(
  db: DbOrTx,
  filter: AuditFilter,
): Promise<{ data: AuditListed[]; next: string | null }> {
  const limit = filter.limit ?? 50;
  const action = filter.action;
  const conditions: (SQL | undefined)[] = [
    filter.partnerId ? eq(auditEvents.partnerId, filter.partnerId) : undefined,
    action === undefined
      ? undefined
      : action.includes(".")
        ? eq(auditEvents.action, action)
        : sql`(${auditEvents.action} = ${action} or ${auditEvents.action} like ${`${action}.%`})`,
  ];
  // The cursor's own time, read in SQL: a JavaScript Date would cut its microseconds.
  if (filter.before)
    conditions.push(
      sql`(${auditEvents.at}, ${auditEvents.seq}) < (select ${auditEvents.at}, ${auditEvents.seq} from ${auditEvents} where ${auditEvents.id} = ${filter.before})`,
    );
  const rows = await db
    .select({ ...getTableColumns(auditEvents), partnerName: partners.name })
    .from(auditEvents)
    .leftJoin(partners, eq(partners.id, auditEvents.partnerId))
    .where(and(...conditions))
    .orderBy(desc(auditEvents.at), desc(auditEvents.seq))
    .limit(limit + 1);
  const data = rows.slice(0, limit);
  return { data, next: rows.length > limit ? data.at(-1)!.id : null };
}

/** Rows older than `days` go, 10,000 a statement (the daily retention job). */
export const pruneAudit = (db: Db, days: number): Promise<number> =>
  pruneOlderThan(db, auditEvents, { id: auditEvents.id, at: auditEvents.at }, days);
