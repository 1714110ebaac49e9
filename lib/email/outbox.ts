// The outbox: every email is a row written in the transaction of what causes it, with its send job
// (pg-boss's own insert, in the same transaction: the mail exists if and only if the change commits,
// and no started queue is needed, so the operators' CLI sends mail too). Operators read the rows in
// the console, whatever their state.
import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";
import type { EmailStatus, TeamRole } from "@/lib/domain";
import { jobsInsertSql, jobsJson, QUEUES } from "@/lib/queue";
import type { Rendered } from "./templates";

const { emailOutbox, users, partners } = schema;
export type OutboxRow = typeof emailOutbox.$inferSelect;

/** One message to one address, about an organisation (null: none). */
export interface Email extends Rendered {
  to: string;
  partnerId: string | null;
}

/** Writes the messages and their send jobs inside `tx`: both commit with it, or neither. */
export async function queueEmails(tx: DbOrTx, emails: readonly Email[]): Promise<string[]> {
  if (!emails.length) return [];
  const rows = emails.map((e) => ({
    id: randomUUID(),
    kind: e.kind,
    partnerId: e.partnerId,
    recipient: e.to,
    subject: e.subject,
    body: e.body,
    secret: e.secret ?? false,
  }));
  await tx.insert(emailOutbox).values(rows);
  const jobs = rows.map((row) => ({ data: { emailId: row.id, attempt: 0 } }));
  await tx.execute(jobsInsertSql(sql`${jobsJson(QUEUES.sendEmail, jobs)}::json`));
  return rows.map((row) => row.id);
}

/** The organisation's name and the addresses of its members with one of `roles` (never disabled ones). */
export async function membersToTell(
  db: DbOrTx,
  partnerId: string,
  who: { roles?: readonly TeamRole[]; where?: SQL },
): Promise<{ organisation: string; emails: string[] }> {
  const rows = await db
    .select({ email: users.email, organisation: partners.name })
    .from(partners)
    .leftJoin(
      users,
      and(
        eq(users.partnerId, partners.id),
        sql`${users.disabledAt} is null`,
        who.roles ? inArray(users.role, [...who.roles]) : undefined,
        who.where,
      ),
    )
    .where(eq(partners.id, partnerId))
    .orderBy(users.email);
  return {
    organisation: rows[0]?.organisation ?? "",
    emails: rows.flatMap((r) => (r.email ? [r.email] : [])),
  };
}

/** The same message to each address. */
export const toEach = (emails: readonly string[], partnerId: string | null, message: Rendered): Email[] =>
  emails.map((to) => ({ ...message, to, partnerId }));

export interface OutboxFilter {
  status?: EmailStatus;
  limit?: number;
}

/** The newest messages first, for the console. */
export async function outboxPage(db: DbOrTx, filter: OutboxFilter = {}) {
  return db
    .select({
      id: emailOutbox.id,
      kind: emailOutbox.kind,
      recipient: emailOutbox.recipient,
      subject: emailOutbox.subject,
      body: emailOutbox.body,
      secret: emailOutbox.secret,
      status: emailOutbox.status,
      attempts: emailOutbox.attempts,
      lastError: emailOutbox.lastError,
      createdAt: emailOutbox.createdAt,
      sentAt: emailOutbox.sentAt,
      partnerName: partners.name,
    })
    .from(emailOutbox)
    .leftJoin(partners, eq(partners.id, emailOutbox.partnerId))
    .where(filter.status ? eq(emailOutbox.status, filter.status) : undefined)
    .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
    .limit(filter.limit ?? 100);
}
