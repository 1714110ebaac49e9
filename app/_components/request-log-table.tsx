import type { RequestLogRow } from "@/lib/request-logs";
import { DataTable } from "./data-table";
import { Badge, Time } from "./ui";

/** A status's badge tone. */
export const statusTone = (status: number) => (status >= 500 ? "error" : status >= 400 ? "failing" : "ok");

/**
 * Request log rows (portal Logs and the admin look-up); `partner` adds the owner's column, `detail`
 * links each request id to its detail page.
 */
export function RequestLogTable({
  rows,
  partner,
  detail,
}: {
  rows: (RequestLogRow & { partner?: string | null })[];
  partner?: boolean;
  detail?: (id: number) => string;
}) {
  return (
    <DataTable
      label="Requests"
      rows={rows}
      rowKey={(r) => r.id}
      columns={[
        { header: "Time", cell: (r) => <Time value={r.at} seconds /> },
        {
          header: "Request",
          className: "font-mono text-xs",
          cell: (r) => (
            <>
              <span className="font-semibold">{r.method}</span> <span className="break-all">{r.path}</span>
            </>
          ),
        },
        {
          header: "Status",
          className: "whitespace-nowrap",
          cell: (r) => (
            <>
              <Badge value={statusTone(r.status)} label={String(r.status)} />
              {r.errorCode && <span className="ml-1 font-mono text-xs text-slate-700">{r.errorCode}</span>}
            </>
          ),
        },
        { header: "Duration", cell: (r) => `${r.durationMs} ms`, from: "sm", className: "tabular-nums" },
        {
          header: "Key",
          cell: (r) => (r.keyVisibleStart ? `${r.keyVisibleStart}…` : "—"),
          from: "md",
          className: "whitespace-nowrap font-mono text-xs",
        },
        partner && {
          header: "Partner",
          cell: (r) => (
            <>
              {r.partner ?? <span className="text-slate-600">no valid key</span>}
              {r.mode && (
                <>
                  {" "}
                  <Badge value={r.mode} />
                </>
              )}
            </>
          ),
        },
        {
          header: "Request id",
          className: "font-mono text-xs break-all",
          testId: "request-id",
          cell: (r) => r.requestId,
          href: detail && ((r) => detail(r.id)),
        },
      ]}
    />
  );
}
