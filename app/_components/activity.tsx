import Link from "next/link";
import { AUDIT_AREAS, auditPage, type AuditRow } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { oneParam, idParam, type RawParam } from "@/lib/portal/params";
import { FilterActions } from "./filters";
import { EmptyState, Missing, TableWrap, Time } from "./ui";

export type ActivitySearch = Record<"area" | "before", RawParam>;

const detailText = (detail: AuditRow["detail"]) =>
  Object.entries(detail ?? {})
    .map(([name, value]) => `${name.replaceAll("_", " ")}: ${value}`)
    .join(" · ");

/**
 * The security history, newest first, filtered by area, 50 rows a page: a partner's (Team →
 * Activity) or everyone's (the admin console, with each row's partner).
 */
export async function Activity({
  db,
  partnerId,
  search,
  href,
  showPartner = false,
}: {
  db: Db;
  partnerId?: string;
  search: ActivitySearch;
  href: string;
  /** The admin console's: say whose each row is. */
  showPartner?: boolean;
}) {
  const area = AUDIT_AREAS.find((a) => a === oneParam(search.area));
  const before = idParam(search.before);
  const page = await auditPage(db, { partnerId, action: area, before, limit: 50 });
  const query = new URLSearchParams(area ? { area } : {});
  return (
    <>
      <form className="mb-4 flex flex-wrap items-end gap-3" aria-label="Filter the activity">
        <div>
          <label htmlFor="area" className="label">
            What
          </label>
          <select id="area" name="area" defaultValue={area ?? ""} className="input">
            <option value="">Everything</option>
            {AUDIT_AREAS.map((a) => (
              <option key={a} value={a}>
                {a.replaceAll("_", " ")}
              </option>
            ))}
          </select>
        </div>
        <FilterActions filtered={Boolean(area)} clearHref={href} />
      </form>
      {page.data.length ? (
        <>
          <TableWrap label="Activity">
            <table className="table" data-testid="activity">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  {showPartner && <th scope="col">Partner</th>}
                  <th scope="col">On</th>
                  <th scope="col" className="hidden md:table-cell">
                    Detail
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((row) => (
                  <tr key={row.id} data-testid="activity-row">
                    <td>
                      <Time value={row.at} seconds />
                    </td>
                    <td>
                      {row.actor}
                      {row.address && <div className="font-mono text-xs text-slate-500">{row.address}</div>}
                    </td>
                    <td>
                      <code className="code-inline">{row.action}</code>
                    </td>
                    {showPartner && <td>{row.partnerName ?? <Missing>operators</Missing>}</td>}
                    <td className="break-all">{row.target ?? <Missing>—</Missing>}</td>
                    <td className="hidden text-xs text-slate-600 md:table-cell">{detailText(row.detail)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <nav aria-label="Pages" className="mt-4 flex gap-2">
            {before && (
              <Link className="btn-secondary" href={`${href}?${query}`}>
                Newest
              </Link>
            )}
            {page.next && (
              <Link
                className="btn-secondary"
                href={`${href}?${new URLSearchParams([...query, ["before", page.next]])}`}
              >
                Older
              </Link>
            )}
          </nav>
        </>
      ) : (
        <EmptyState title={area ? "Nothing of this kind yet" : "No activity yet"}>
          Sign-ins, key and endpoint changes, team changes and operators&apos; actions appear here.
        </EmptyState>
      )}
    </>
  );
}
