import Link from "next/link";
import { requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { listProperties } from "@/lib/properties";
import { PROPERTY_STATUSES } from "@/lib/domain";
import { idParam, propertyFilters, queryOf, type RawParam } from "@/lib/portal/params";
import { DataTable, Pager } from "../../_components/data-table";
import { Badge, Card, EmptyState, Missing, PageHeader, Time } from "../../_components/ui";
import { RegisterPropertyForm } from "./forms";
import { AutoRefresh } from "../../_components/auto-refresh";
import { DayRange, FilterActions, FilterForm, SearchFilter, SelectFilter } from "../../_components/filters";
import { enrichingCount } from "@/lib/portal/queries";

export const metadata = { title: "Properties" };

type Search = Record<"q" | "status" | "from" | "to" | "after", RawParam>;

export default async function Properties({ searchParams }: { searchParams: Promise<Search> }) {
  const { app, scope, mode, user } = await requirePartner();
  const s = await searchParams;
  const { q, status, from, to, list } = propertyFilters(s);
  const filtered = Boolean(q || status || from || to);
  const enriching = await enrichingCount(app.db, scope);
  const page = await listProperties(app.db, scope, { ...list, limit: 25, startingAfter: idParam(s.after) });
  const query = queryOf({ q, status, from, to });
  return (
    <>
      <PageHeader
        title="Properties"
        description={`Registered in ${mode} mode, newest first.`}
        actions={
          <>
            <a className="btn-secondary" href={`/properties/export?${query}`} download>
              Download CSV
            </a>
            <AutoRefresh
              active={enriching > 0}
              watching={!idParam(s.after)}
              message={`${enriching} enriching — this list updates by itself`}
            />
          </>
        }
      />
      {can(user.role, "write", mode) && (
        <Card title="Register a property" className="mb-6">
          <RegisterPropertyForm mode={mode} />
        </Card>
      )}
      <FilterForm
        label="Filter properties"
        query={query.toString()}
        className="sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto] lg:items-end"
      >
        <SearchFilter
          label="Search"
          value={q}
          placeholder="Reference, address or municipality"
          className="sm:col-span-2 lg:col-span-1"
        />
        <SelectFilter
          name="status"
          label="Status"
          value={status}
          any="Any status"
          options={PROPERTY_STATUSES.map((st) => [st, st.replaceAll("_", " ")])}
        />
        <DayRange from={from} to={to} fromLabel="Registered from" className="sm:col-span-2 lg:col-span-2" />
        <FilterActions filtered={filtered} clearHref="/properties" className="sm:col-span-2 lg:col-span-1" />
      </FilterForm>
      {page?.data.length ? (
        <DataTable
          label="Properties"
          rows={page.data}
          rowKey={(p) => p.property_id}
          rowClassName={() => "hover:bg-slate-50"}
          columns={[
            {
              header: "Reference",
              cell: (p) => p.cadastral_reference,
              href: (p) => `/properties/${p.property_id}`,
              className: "font-mono",
            },
            { header: "Status", cell: (p) => <Badge value={p.status} /> },
            { header: "Address", cell: (p) => p.address ?? <Missing />, from: "md", className: "max-w-md" },
            { header: "Municipality", cell: (p) => p.municipality ?? <Missing />, from: "sm" },
            { header: "Registered", cell: (p) => <Time value={p.created_at} />, from: "lg" },
          ]}
          footer={
            <Pager
              first={s.after ? `/properties?${query}` : null}
              next={
                page.has_more &&
                `/properties?${new URLSearchParams([...query, ["after", String(page.next_starting_after)]])}`
              }
            />
          }
        />
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
