import { requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { findItemsByExternalId, listBatches, MAX_TEXT } from "@/lib/batches";
import { idParam, searchText, type RawParam } from "@/lib/portal/params";
import { AutoRefresh } from "../../_components/auto-refresh";
import { SamplePortfolioLinks } from "../../_components/sample-portfolio";
import { DataTable, Pager } from "../../_components/data-table";
import { FilterActions, FilterForm, SearchFilter } from "../../_components/filters";
import { Badge, Card, EmptyState, PageHeader, Time } from "../../_components/ui";
import { BatchProgress } from "./progress";
import { PortfolioUpload } from "./upload";

export const metadata = { title: "Portfolios" };

/** At most this many items found by a partner's id across portfolios (an id repeats only by mistake or resubmission). */
const FOUND_LIMIT = 50;

export default async function Portfolios({
  searchParams,
}: {
  searchParams: Promise<{ after?: RawParam; external_id?: RawParam }>;
}) {
  const { app, scope, mode, user } = await requirePartner();
  const s = await searchParams;
  const after = idParam(s.after);
  const externalId = searchText(s.external_id, MAX_TEXT);
  const [page, found] = await Promise.all([
    listBatches(app.db, scope, { limit: 20, startingAfter: after }),
    externalId ? findItemsByExternalId(app.db, scope, externalId, FOUND_LIMIT) : undefined,
  ]);
  const running = page?.data.filter((b) => !b.completed_at).length ?? 0;
  return (
    <>
      <PageHeader
        title="Portfolios"
        description={`Register many properties at once, in ${mode} mode: upload a file, follow its progress, download the results.`}
        actions={
          <AutoRefresh
            active={running > 0}
            watching={!after}
            message={`${running} running — this list updates by itself`}
          />
        }
      />
      {can(user.role, "write", mode) && (
        <Card title="Upload a portfolio" className="mb-6">
          <PortfolioUpload
            mode={mode}
            maxRows={app.config.BATCH_MAX_ITEMS}
            maxMiB={app.config.BATCH_MAX_BYTES / 1024 / 1024}
          />
          {mode === "test" && (
            <p className="mt-3 text-sm text-slate-600">
              No file at hand? A sample of test references, new at each download: <SamplePortfolioLinks />.
            </p>
          )}
        </Card>
      )}
      <FilterForm
        label="Find an item by your id"
        query={externalId ?? ""}
        className="sm:grid-cols-[1fr_auto] sm:items-end"
      >
        <SearchFilter
          name="external_id"
          label="Find an item in any portfolio by your id"
          value={externalId}
          placeholder="external_id, exactly (a loan number)"
        />
        <FilterActions filtered={externalId !== undefined} clearHref="/portfolios" />
      </FilterForm>
      {found &&
        (found.length ? (
          <div className="mb-6">
            <DataTable
              label="Items found"
              rows={found}
              rowKey={(f) => `${f.batch.batch_id}/${f.item.line}`}
              columns={[
                {
                  header: "Portfolio",
                  cell: (f) => f.batch.name ?? f.batch.batch_id.slice(0, 8),
                  href: (f) =>
                    `/portfolios/${f.batch.batch_id}?${new URLSearchParams({ external_id: f.item.external_id ?? "" })}`,
                },
                { header: "Line", cell: (f) => f.item.line, className: "tabular-nums" },
                {
                  header: "Reference",
                  className: "font-mono",
                  cell: (f) => f.item.cadastral_reference,
                  href: (f) => f.item.property_id && `/properties/${f.item.property_id}`,
                },
                { header: "Status", cell: (f) => <Badge value={f.item.status} /> },
                { header: "Submitted", cell: (f) => <Time value={f.batch.created_at} />, from: "md" },
              ]}
            />
          </div>
        ) : (
          <EmptyState title="No item has this id">
            Ids are matched exactly, as your file gave them, in {mode} mode.
          </EmptyState>
        ))}
      {page?.data.length ? (
        <DataTable
          label="Portfolios"
          rows={page.data}
          rowKey={(b) => b.batch_id}
          columns={[
            {
              header: "Name",
              cell: (b) => b.name ?? b.batch_id.slice(0, 8),
              href: (b) => `/portfolios/${b.batch_id}`,
            },
            { header: "Status", cell: (b) => <Badge value={b.status} /> },
            { header: "Progress", cell: (b) => <BatchProgress counts={b.counts} compact />, className: "min-w-48" },
            { header: "Submitted", cell: (b) => <Time value={b.created_at} />, from: "md" },
          ]}
          footer={
            <Pager
              first={after && "/portfolios"}
              next={page.has_more && `/portfolios?after=${page.next_starting_after}`}
            />
          }
        />
      ) : (
        <EmptyState title={`No ${mode} portfolios yet`}>
          Upload a file above, or send one with POST /batches (see the Portfolios guide in the docs).
        </EmptyState>
      )}
    </>
  );
}
