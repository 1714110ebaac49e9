import Link from "next/link";
import { requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { listProperties } from "@/lib/properties";
import { PROPERTY_STATUSES, type PropertyStatus } from "@/lib/domain";
import { idParam, isoDay, oneParam, searchText, type RawParam } from "@/lib/portal/params";
import { Badge, Card, EmptyState, Missing, PageHeader, TableWrap, Time } from "../../_components/ui";
import { RegisterPropertyForm } from "./forms";
import { AutoRefresh } from "../../_components/auto-refresh";
import { DayRange, FilterActions } from "../../_components/filters";
import { enrichingCount } from "@/lib/portal/queries";

export const metadata = { title: "Properties" };

type Search = Record<"q" | "status" | "from" | "to" | "after", RawParam>;

export default async function Properties({ searchParams }: { searchParams: Promise<Search> }) {
  const { app, scope, mode, user } = await requirePartner();
  const s = await searchParams;
  const status = (PROPERTY_STATUSES as readonly string[]).includes(oneParam(s.status) ?? "")
    ? (oneParam(s.status) as PropertyStatus)
    : undefined;
  const from = isoDay(s.from);
  const to = isoDay(s.to);
  const q = searchText(s.q, 100);
  const filtered = Boolean(q || status || from || to);
  const enriching = await enrichingCount(app.db, scope);
  const page = await listProperties(app.db, scope, {
    limit: 25,
    search: q,
    status,
    // Dates are whole UTC days: "to" includes that day.
    createdFrom: from ? new Date(`${from}T00:00:00Z`) : undefined,
    createdTo: to ? new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000) : undefined,
    startingAfter: idParam(s.after),
  });
  const query = new URLSearchParams({
    ...(q ? { q } : {}),
    ...(status ? { status } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  });
  return (
    <>
      <PageHeader
        title="Properties"
        description={`Registered in ${mode} mode, newest first.`}
        actions={
          <AutoRefresh
            active={enriching > 0}
            watching={!idParam(s.after)}
            message={`${enriching} enriching — this list updates by itself`}
          />
        }
      />
      {can(user.role, "write", mode) && (
        <Card title="Register a property" className="mb-6">
          <RegisterPropertyForm mode={mode} />
        </Card>
      )}
      {/* Keyed by the filters: navigating to other filters (or none) must reset the fields. */}
      <form
        key={query.toString()}
        className="mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto] lg:items-end"
        role="search"
        aria-label="Filter properties"
      >
        <div className="sm:col-span-2 lg:col-span-1">
          <label htmlFor="q" className="label">
            Search
          </label>
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={q}
            className="input"
            placeholder="Reference, address or municipality"
          />
        </div>
        <div>
          <label htmlFor="status" className="label">
            Status
          </label>
          <select id="status" name="status" defaultValue={status ?? ""} className="input">
            <option value="">Any status</option>
            {PROPERTY_STATUSES.map((st) => (
              <option key={st} value={st}>
                {st.replaceAll("_", " ")}
              </option>
            ))}
          </select>
        </div>
        <DayRange from={from} to={to} fromLabel="Registered from" className="sm:col-span-2 lg:col-span-2" />
        <FilterActions filtered={filtered} clearHref="/properties" className="sm:col-span-2 lg:col-span-1" />
      </form>
      {page?.data.length ? (
        <TableWrap label="Properties">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Reference</th>
                <th scope="col">Status</th>
                <th scope="col" className="hidden md:table-cell">
                  Address
                </th>
                <th scope="col" className="hidden sm:table-cell">
                  Municipality
                </th>
                <th scope="col" className="hidden lg:table-cell">
                  Registered
                </th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((p) => (
                <tr key={p.property_id} className="hover:bg-slate-50">
                  <td>
                    <Link className="link font-mono" href={`/properties/${p.property_id}`}>
                      {p.cadastral_reference}
                    </Link>
                  </td>
                  <td>
                    <Badge value={p.status} />
                  </td>
                  <td className="hidden max-w-md md:table-cell">{p.address ?? <Missing />}</td>
                  <td className="hidden sm:table-cell">{p.municipality ?? <Missing />}</td>
                  <td className="hidden lg:table-cell">
                    <Time value={p.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {(page.has_more || s.after) && (
            <div className="flex justify-between gap-2 border-t border-slate-100 p-3">
              {s.after ? (
                <Link className="btn-secondary" href={`/properties?${query}`}>
                  First page
                </Link>
              ) : (
                <span />
              )}
              {page.has_more && (
                <Link
                  className="btn-secondary"
                  href={`/properties?${query}${query.size ? "&" : ""}after=${page.next_starting_after}`}
                >
                  Next page
                </Link>
              )}
            </div>
          )}
        </TableWrap>
      ) : filtered ? (
        <EmptyState
          title="No properties match"
          action={
            <Link className="btn-secondary" href="/properties">
              Clear filters
            </Link>
          }
        >
          Try another search or a wider date range.
        </EmptyState>
      ) : (
        <EmptyState title={`No ${mode} properties yet`}>
          Register one above, or through the API with a {mode} key.
        </EmptyState>
      )}
    </>
  );
}
