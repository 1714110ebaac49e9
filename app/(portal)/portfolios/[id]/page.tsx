import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { getBatch, listItems } from "@/lib/batches";
import { BATCH_ITEM_STATUSES, oneOf } from "@/lib/domain";
import { oneParam, searchText, type RawParam } from "@/lib/portal/params";
import { MAX_TEXT } from "@/lib/batches";
import { ActionButton } from "../../../_components/action-button";
import { AutoRefresh } from "../../../_components/auto-refresh";
import { DataTable, Pager } from "../../../_components/data-table";
import { Badge, Card, EmptyState, Missing, PageHeader, Time } from "../../../_components/ui";
import { cancelPortfolioAction } from "../actions";
import { BatchProgress } from "../progress";

export const metadata = { title: "Portfolio" };

type Search = Record<"status" | "after" | "external_id", RawParam>;

export default async function PortfolioPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Search>;
}) {
  const { app, scope, user } = await requirePartner();
  const { id } = await params;
  const s = await searchParams;
  const batch = await getBatch(app.db, scope, id);
  if (!batch) notFound();
  const status = oneOf(BATCH_ITEM_STATUSES, oneParam(s.status));
  const externalId = searchText(s.external_id, MAX_TEXT);
  const after = /^\d{1,9}$/.test(oneParam(s.after) ?? "") ? Number(oneParam(s.after)) : undefined;
  const [items, invalid] = await Promise.all([
    listItems(app.db, scope, id, { limit: 50, status, externalId, startingAfter: after }),
    listItems(app.db, scope, id, { limit: 20, status: "invalid" }),
  ]);
  const active = !batch.completed_at;
  const filters = { ...(status ? { status } : {}), ...(externalId ? { external_id: externalId } : {}) };
  const query = (more: Record<string, string>) => `?${new URLSearchParams({ ...filters, ...more })}`;
  return (
    <>
      <PageHeader
        title={batch.name ?? `Portfolio ${batch.batch_id.slice(0, 8)}`}
        description={
          <>
            <Badge value={batch.status} /> submitted <Time value={batch.created_at} />
            {batch.completed_at && (
              <>
                {" "}
                · completed <Time value={batch.completed_at} />
              </>
            )}
          </>
        }
        actions={
          <>
            <AutoRefresh active={active} message="Running — this page updates by itself" />
            <a className="btn-secondary" href={`/portfolios/${id}/results?format=csv`} download>
              Download CSV
            </a>
            <a className="btn-secondary" href={`/portfolios/${id}/results?format=xlsx`} download>
              Download XLSX
            </a>
            <a className="btn-secondary" href={`/portfolios/${id}/results?format=ndjson`} download>
              Download NDJSON
            </a>
            {(batch.status === "queued" || batch.status === "running") && can(user.role, "write", scope.mode) && (
              <ActionButton
                action={cancelPortfolioAction}
                id={id}
                className="btn-danger"
                pendingText="Cancelling…"
                confirm="Cancel this portfolio? Items not started yet are not registered; those already registered finish enriching."
              >
                Cancel
              </ActionButton>
            )}
          </>
        }
      />
      <Card title="Progress" className="mb-6">
        <BatchProgress counts={batch.counts} />
      </Card>
      {invalid && invalid.data.length > 0 && (
        <Card title={`Invalid rows (${batch.counts.invalid.toLocaleString("en")})`} className="mb-6">
          <ul className="space-y-1 text-sm" aria-label="Invalid rows">
            {invalid.data.map((item) => (
              <li key={item.line}>
                <span className="font-medium tabular-nums">Line {item.line}</span>: {item.error?.detail}
              </li>
            ))}
          </ul>
          {invalid.has_more && (
            <Link className="link mt-2 inline-block text-sm" href="?status=invalid">
              All invalid rows
            </Link>
          )}
        </Card>
      )}
      <form className="mb-4 flex flex-wrap items-end gap-3" role="search" aria-label="Filter items">
        <div>
          <label htmlFor="status" className="label">
            Status
          </label>
          <select id="status" name="status" defaultValue={status ?? ""} className="input">
            <option value="">Any status</option>
            {BATCH_ITEM_STATUSES.map((st) => (
              <option key={st} value={st}>
                {st.replaceAll("_", " ")} ({batch.counts[st]})
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="external_id" className="label">
            Your id
          </label>
          <input
            id="external_id"
            name="external_id"
            type="search"
            defaultValue={externalId}
            placeholder="external_id, exactly"
            className="input"
          />
        </div>
        <button type="submit" className="btn-secondary">
          Filter
        </button>
        {(status || externalId) && (
          <Link className="btn-secondary" href={`/portfolios/${id}`}>
            Clear
          </Link>
        )}
      </form>
      {items?.data.length ? (
        <DataTable
          label="Items"
          rows={items.data}
          rowKey={(item) => item.line}
          columns={[
            { header: "Line", cell: (item) => item.line, className: "tabular-nums" },
            {
              header: "Reference",
              className: "font-mono",
              cell: (item) => item.cadastral_reference || <Missing>(empty)</Missing>,
              href: (item) => item.property_id && `/properties/${item.property_id}`,
            },
            { header: "Status", cell: (item) => <Badge value={item.status} /> },
            { header: "Your id", cell: (item) => item.external_id ?? <Missing />, from: "sm" },
          ]}
          footer={
            <Pager
              first={after !== undefined && query({})}
              next={items.has_more && query({ after: String(items.next_starting_after) })}
            />
          }
        />
      ) : (
        <EmptyState title="No items match">Choose another status or id.</EmptyState>
      )}
    </>
  );
}
