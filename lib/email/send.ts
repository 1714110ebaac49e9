// Sending an outbox row (the send-email job): through the SMTP server of SMTP_URL (nodemailer), or,
// without one, held in the outbox for operators. A refusal or an unreachable server is tried again
// on EMAIL_RETRY_SCHEDULE (the row's state, its next job and its error written together), then the
// row fails. A job whose attempt count is not the row's is stale and does nothing.
import { and, eq, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import { schema, type Db } from "@/lib/db";
import type { Config } from "@/lib/config";
import { jobsInsertSql, jobsJson, QUEUES, type JobData } from "@/lib/queue";

const { emailOutbox } = schema;

export type SendEmailJob = JobData<typeof QUEUES.sendEmail>;

/** Hands one message to a mail server: its Message-ID, or it throws. */
export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<{ messageId: string }>;
  close(): void;
}

/** nodemailer's SMTP transport on `url`, one pooled connection at a time per process. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url, { from });
  return {
    async send(message) {
      const info = await transport.sendMail({ ...message, from });
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

export interface EmailDeps {
  db: Db;
  /** Null: no SMTP_URL, messages are held. */
  mailer: Mailer | null;
  config: Pick<Config, "EMAIL_RETRY_SCHEDULE">;
}

export type SendOutcome = "sent" | "held" | "retry" | "failed" | "skipped";

/** Error texts as stored: bounded, no line breaks (an SMTP answer may carry several). */
const errorText = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").slice(0, 500);

export async function sendQueuedEmail(deps: EmailDeps, job: SendEmailJob): Promise<SendOutcome> {
  const [row] = await deps.db.select().from(emailOutbox).where(eq(emailOutbox.id, job.emailId));
  if (row?.status !== "queued" || row.attempts !== job.attempt) return "skipped";
  const current = and(
    eq(emailOutbox.id, row.id),
    eq(emailOutbox.attempts, job.attempt),
    eq(emailOutbox.status, "queued"),
  );
  if (!deps.mailer) {
    await deps.db.update(emailOutbox).set({ status: "held" }).where(current);
    return "held";
  }
  const attempts = job.attempt + 1;
  try {
    const { messageId } = await deps.mailer.send({ to: row.recipient, subject: row.subject, text: row.body ?? "" });
    await deps.db
      .update(emailOutbox)
      .set({
        status: "sent",
        attempts,
        sentAt: new Date(),
        messageId,
        lastError: null,
        // A one-time link stays in the recipient's mailbox only.
        ...(row.secret ? { body: null } : {}),
      })
      .where(current);
    return "sent";
  } catch (error) {
    const delay = deps.config.EMAIL_RETRY_SCHEDULE[job.attempt];
    return deps.db.transaction(async (tx) => {
      const updated = await tx
        .update(emailOutbox)
        .set({ status: delay === undefined ? "failed" : "queued", attempts, lastError: errorText(error) })
        .where(current)
        .returning({ id: emailOutbox.id });
      if (!updated.length) return "skipped";
      if (delay === undefined) return "failed";
      const next = jobsJson(QUEUES.sendEmail, [
        { data: { emailId: row.id, attempt: attempts }, options: { delaySeconds: delay } },
      ]);
      await tx.execute(jobsInsertSql(sql`${next}::json`));
      return "retry";
    });
  }
}
