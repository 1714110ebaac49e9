import { requirePartner } from "@/server/session";
import { searchRequestLogs, STATUS_CLASSES } from "@/lib/request-logs";
import { logFilters, oneParam, queryOf, type RawParam } from "@/lib/portal/params";
import { EmptyState, PageHeader } from "../../_components/ui";
import { RequestLogTable } from "../../_components/request-log-table";
import { Pager } from "../../_components/data-table";
import { Field } from "../../_components/field";
import { DayRange, FilterActions, FilterForm, SearchFilter, SelectFilter } from "../../_components/filters";
import { AutoRefresh } from "../../_components/auto-refresh";

export const metadata = { title: "Logs" };

type Search = Record<"q" | "status" | "path" | "from" | "to" | "before", RawParam>;

export default async function Logs({ searchParams }: { searchParams: Promise<Search> }) {
  const { app, partnerId, mode, user } = await requirePartner();
  const s = await searchParams;
  const { q, status, path, from, to, search } = logFilters(s);
  const before = /^\d{1,15}$/.test(oneParam(s.before) ?? "") ? Number(oneParam(s.before)) : undefined;
  const { rows, next } = await searchRequestLogs(app.db, {
    partnerId,
    mode,
    role: user.role,
    ...search,
    before,
    limit: 50,
  });
  const query = queryOf({ q, status, path, from, to });
  const filtered = query.size > 0;
  return (
    <>
      <PageHeader
        title="Logs"
        description={`Your ${mode}-mode API requests, newest first, kept ${app.config.REQUEST_LOG_RETENTION_DAYS} days. Search by the X-Request-Id of a response or the request_id of an error; open one for its body, headers and answer. Keys and secrets are redacted before anything is stored.`}
        actions={
          <>
            <a className="btn-secondary" href={`/logs/export?${query}`} download>
              Download CSV
            </a>
            <AutoRefresh active={false} watching={before === undefined} />
          </>
        }
      />
      <FilterForm
        label="Filter requests"
        query={query.toString()}
        className="sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1.5fr_2fr_auto] lg:items-end"
      >
        <SearchFilter label="Request id" value={q} placeholder="req_…" className="sm:col-span-2 lg:col-span-1" mono />
        <SelectFilter
          name="status"
          label="Status"
          value={status ? String(status) : undefined}
          any="Any status"
          options={[
            ...STATUS_CLASSES.map((c) => [c, c] as const),
            ...(typeof status === "number" ? [[String(status), String(status)] as const] : []),
          ]}
        />
        <Field
          id="path"
          label="Path starts with"
          defaultValue={path}
          inputClassName="input font-mono"
          placeholder="/api/v1/partner-api/properties"
        />
        <DayRange from={from} to={to} className="sm:col-span-2 lg:col-span-2" />
        <FilterActions filtered={filtered} clearHref="/logs" className="sm:col-span-2 lg:col-span-1" />
      </FilterForm>
      {rows.length ? (
        <>
          <RequestLogTable rows={rows} detail={(id) => `/logs/${id}`} />
          <Pager
            first={before !== undefined && `/logs?${query}`}
            next={
              next !== null &&
              next !== undefined &&
              `/logs?${new URLSearchParams([...query, ["before", String(next)]])}`
            }
            labels={["Newest", "Older"]}
          />
        </>
      ) : (
        <EmptyState title={filtered ? "No requests match" : "No requests yet"}>
          {filtered
            ? "Requests are written within seconds; older ones are pruned after the retention period."
            : `Requests made with a ${mode} key appear here within seconds.`}
        </EmptyState>
      )}
    </>
  );
}
