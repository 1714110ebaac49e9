import Link from "next/link";
import { requireOperator } from "@/server/session";
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
      <form key={q ?? ""} role="search" aria-label="Find a request" className="mb-4 flex max-w-lg gap-2">
        <label htmlFor="q" className="sr-only">
          Request id
        </label>
        <input
          id="q"
          name="q"
          type="search"
          defaultValue={q}
          className="input font-mono"
          placeholder="req_…"
          required
        />
        <button type="submit" className="btn-secondary">
          Find
        </button>
        {q && (
          <Link className="btn-secondary" href="/admin/requests">
            Clear
          </Link>
        )}
      </form>
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
