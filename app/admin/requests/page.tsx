import { requireOperator } from "@/server/session";
import { LookupForm } from "../../_components/filters";
import { findRequest } from "@/lib/request-logs";
import { searchText, type RawParam } from "@/lib/portal/params";
import { EmptyState, PageHeader } from "../../_components/ui";
import { RequestLogTable } from "../../_components/request-log-table";

export const metadata = { title: "Requests" };

export default async function AdminRequests({ searchParams }: { searchParams: Promise<{ q?: RawParam }> }) {
  const { app } = await requireOperator();
  const q = searchText((await searchParams).q, 64);
  const rows = q ? await findRequest(app.db, q) : [];
  return (
    <>
      <PageHeader
        title="Look up a request"
        description={`The request_id a partner quotes (every response's X-Request-Id), any partner or none. Kept ${app.config.REQUEST_LOG_RETENTION_DAYS} days; the server's logs hold the same id.`}
      />
      <LookupForm
        label="Find a request"
        field="Request id"
        value={q}
        placeholder="req_…"
        clearHref="/admin/requests"
        required
      />
      {rows.length ? (
        <RequestLogTable rows={rows} partner />
      ) : (
        q && (
          <EmptyState title="No request with this id">
            Check the id (it starts req_); requests older than the retention period are pruned.
          </EmptyState>
        )
      )}
    </>
  );
}
