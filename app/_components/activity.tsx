import { AUDIT_AREAS, auditPage, type AuditRow } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { oneParam, idParam, type RawParam } from "@/lib/portal/params";
import { FilterActions } from "./filters";
import { DataTable, Pager } from "./data-table";
import { EmptyState, Missing, Time } from "./ui";

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
          <DataTable
            label="Activity"
            testId="activity"
            rows={page.data}
            rowKey={(row) => row.id}
            rowTestId="activity-row"
            columns={[
              { header: "When", cell: (row) => <Time value={row.at} seconds /> },
              {
                header: "Who",
                cell: (row) => (
                  <>
                    {row.actor}
                    {row.address && <div className="font-mono text-xs text-slate-500">{row.address}</div>}
                  </>
                ),
              },
              { header: "What", cell: (row) => <code className="code-inline">{row.action}</code> },
              showPartner && { header: "Partner", cell: (row) => row.partnerName ?? <Missing>operators</Missing> },
              { header: "On", cell: (row) => row.target ?? <Missing>—</Missing>, className: "break-all" },
              {
                header: "Detail",
                cell: (row) => detailText(row.detail),
                from: "md",
                className: "text-xs text-slate-600",
              },
            ]}
          />
          <Pager
            first={before && `${href}?${query}`}
            next={page.next && `${href}?${new URLSearchParams([...query, ["before", page.next]])}`}
            labels={["Newest", "Older"]}
          />
        </>
      ) : (
        <EmptyState title={area ? "Nothing of this kind yet" : "No activity yet"}>
          Sign-ins, key and endpoint changes, team changes and operators&apos; actions appear here.
        </EmptyState>
      )}
    </>
  );
}
