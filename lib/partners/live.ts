// Live mode, granted: a new organisation works in test mode only. An owner asks for live access
// (company, contact, intended use); an operator approves or refuses it in the console. Until it is
// approved, live keys cannot be made and a live key answers 401 as an unknown one (lib/api-keys);
// every command in live mode (creates, portfolios, endpoints, exports) asks `requireLiveAccess` at
// the time of the request, so no entry point (portal, API, CLI, a later one) can skip the rule.
import { and, desc, eq, inArray, isNotNull, sql, type SQLWrapper } from "drizzle-orm";
import { z } from "zod";
import { schema, type DbOrTx } from "@/lib/db";
import { authorize, DomainError, hasControl, isUuid, parseBody, type Role, type Scope } from "@/lib/domain";

const { partners } = schema;

/** Whether the organisation `partnerId` (SQL) has live access: a condition inside another statement. */
export const liveAccessApproved = (partnerId: SQLWrapper) =>
  sql<boolean>`exists (select 1 from ${partners} where ${partners.id} = ${partnerId} and ${partners.liveAccess} = 'approved')`;

export async function hasLiveAccess(db: DbOrTx, partnerId: string): Promise<boolean> {
  const [row] = await db.select({ access: partners.liveAccess }).from(partners).where(eq(partners.id, partnerId));
  return row?.access === "approved";
}

/** What a live write of an organisation without live access is told. */
export const NO_LIVE_ACCESS =
  "Your organisation has no live access: live mode needs an owner's request, approved by Finca (API keys page). Test mode stays open.";

/** Live mode needs the organisation's live access now (not when the session or page began): `forbidden` otherwise. */
export async function requireLiveAccess(db: DbOrTx, scope: Scope): Promise<void> {
  if (scope.mode === "live" && !(await hasLiveAccess(db, scope.partnerId)))
    throw new DomainError("forbidden", NO_LIVE_ACCESS);
}

const text = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1, `Say ${what}.`)
    .max(max, `At most ${max} characters.`)
    .refine((value) => !hasControl(value.replace(/[\n\r\t]/g, " ")), "No control characters.");

/** What an owner tells Finca when asking for live access. */
export const LiveRequestBody = z.strictObject({
  company: text(200, "the company's legal name"),
  contact: text(200, "who Finca can contact (name and email or phone)"),
  use: text(2000, "what the organisation will use live mode for"),
});
export type LiveRequest = z.infer<typeof LiveRequestBody>;

/** An owner asks for live access: refused while a request waits or once it is granted. */
export async function requestLiveAccess(
  db: DbOrTx,
  partnerId: string,
  by: { role: Role },
  body: unknown,
): Promise<LiveRequest> {
  authorize(by.role, "live");
  const request = parseBody(LiveRequestBody, body);
  const [row] = await db
    .update(partners)
    .set({ liveAccess: "requested", liveRequest: request, liveRequestedAt: new Date(), liveDecidedAt: null })
    .where(and(eq(partners.id, partnerId), inArray(partners.liveAccess, ["none", "refused"])))
    .returning({ id: partners.id });
  if (!row) throw new DomainError("validation_error", "Live access is already requested or granted.");
  return request;
}

/**
 * An operator's decision on a waiting request: the organisation's name, or null when none waits.
 * `waiting: false` (the operator CLI: an agreement made elsewhere) decides whatever the state.
 */
export async function decideLiveAccess(
  db: DbOrTx,
  partnerId: string,
  approve: boolean,
  { waiting = true } = {},
): Promise<{ name: string } | null> {
  if (!isUuid(partnerId)) return null;
  const [row] = await db
    .update(partners)
    .set({ liveAccess: approve ? "approved" : "refused", liveDecidedAt: new Date() })
    .where(and(eq(partners.id, partnerId), waiting ? eq(partners.liveAccess, "requested") : undefined))
    .returning({ name: partners.name });
  return row ?? null;
}

/** Requests for the console: waiting ones first, then the latest decisions. */
export async function liveRequests(db: DbOrTx, limit = 50) {
  return db
    .select({
      id: partners.id,
      name: partners.name,
      access: partners.liveAccess,
      request: partners.liveRequest,
      requestedAt: partners.liveRequestedAt,
      decidedAt: partners.liveDecidedAt,
    })
    .from(partners)
    .where(isNotNull(partners.liveRequestedAt))
    .orderBy(desc(eq(partners.liveAccess, "requested")), desc(partners.liveRequestedAt))
    .limit(limit);
}
