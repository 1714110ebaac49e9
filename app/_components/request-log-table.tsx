import Link from "next/link";
import type { RequestLogRow } from "@/lib/request-logs";
import { Badge, TableWrap, Time } from "./ui";

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
    <TableWrap label="Requests">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Request</th>
            <th scope="col">Status</th>
            <th scope="col" className="hidden sm:table-cell">
              Duration
            </th>
            <th scope="col" className="hidden md:table-cell">
              Key
            </th>
            {partner && <th scope="col">Partner</th>}
            <th scope="col">Request id</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>
                <Time value={r.at} seconds />
              </td>
              <td className="font-mono text-xs">
                <span className="font-semibold">{r.method}</span> <span className="break-all">{r.path}</span>
              </td>
              <td className="whitespace-nowrap">
                <Badge value={statusTone(r.status)} label={String(r.status)} />
                {r.errorCode && <span className="ml-1 font-mono text-xs text-slate-700">{r.errorCode}</span>}
              </td>
              <td className="hidden tabular-nums sm:table-cell">{r.durationMs} ms</td>
              <td className="hidden whitespace-nowrap font-mono text-xs md:table-cell">
                {r.keyVisibleStart ? `${r.keyVisibleStart}…` : "—"}
              </td>
              {partner && (
                <td>
                  {r.partner ?? <span className="text-slate-600">no valid key</span>}
                  {r.mode && (
                    <>
                      {" "}
                      <Badge value={r.mode} />
                    </>
                  )}
                </td>
              )}
              <td className="font-mono text-xs break-all" data-testid="request-id">
                {detail ? (
                  <Link className="link" href={detail(r.id)}>
                    {r.requestId}
                  </Link>
                ) : (
                  r.requestId
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
