import Link from "next/link";
import { requireOperator } from "@/server/session";
import { EMAIL_STATUSES, type EmailStatus } from "@/lib/domain";
import { outboxPage } from "@/lib/email";
import { oneParam, type RawParam } from "@/lib/portal/params";
import { DataTable } from "../../_components/data-table";
import { Badge, EmptyState, Missing, PageHeader, Time } from "../../_components/ui";

export const metadata = { title: "Outbox" };

const isStatus = (value: string | undefined): value is EmailStatus => EMAIL_STATUSES.some((s) => s === value);

export default async function AdminOutbox({ searchParams }: { searchParams: Promise<{ status?: RawParam }> }) {
  const { app } = await requireOperator();
  const asked = oneParam((await searchParams).status);
  const status = isStatus(asked) ? asked : undefined;
  const emails = await outboxPage(app.db, { status });
  return (
    <>
      <PageHeader
        title="Outbox"
        description={
          app.config.SMTP_URL
            ? "Every email the product wrote, newest first, with its delivery through SMTP_URL. A one-time link's text is dropped once the mail server took it."
            : "No SMTP_URL is set: emails are held here, newest first. Pass a message on to whom it is for (a reset or invitation link works once)."
        }
      />
      <nav aria-label="Filter by state" className="mb-4 flex flex-wrap gap-3 text-sm">
        {[undefined, ...EMAIL_STATUSES].map((s) => (
          <Link
            key={s ?? "all"}
            href={s ? `/admin/outbox?status=${s}` : "/admin/outbox"}
            className={s === status ? "font-semibold text-slate-900" : "link"}
            aria-current={s === status ? "page" : undefined}
          >
            {s ?? "all"}
          </Link>
        ))}
      </nav>
      {emails.length ? (
        <DataTable
          label="Emails"
          testId="outbox"
          rows={emails}
          rowKey={(e) => e.id}
          rowTestId="email"
          columns={[
            { header: "Written", cell: (e) => <Time value={e.createdAt} /> },
            { header: "To", cell: (e) => e.recipient, className: "break-all" },
            { header: "Organisation", cell: (e) => e.partnerName ?? <Missing />, from: "md" },
            {
              header: "Message",
              cell: (e) =>
                e.body ? (
                  <details>
                    <summary className="cursor-pointer">{e.subject}</summary>
                    <pre className="mt-2 whitespace-pre-wrap break-all text-xs">{e.body}</pre>
                  </details>
                ) : (
                  <>
                    {e.subject} <span className="text-xs text-slate-600">(text dropped once sent)</span>
                  </>
                ),
            },
            {
              header: "State",
              cell: (e) => (
                <>
                  <Badge value={e.status} />
                  {e.lastError && <p className="mt-1 text-xs text-slate-600">{e.lastError}</p>}
                </>
              ),
            },
            { header: "Sent", cell: (e) => <Time value={e.sentAt} missing="—" />, from: "sm" },
          ]}
        />
      ) : (
        <EmptyState title={status ? `No ${status} emails` : "No emails yet"} />
      )}
    </>
  );
}
