import { requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { listBatches } from "@/lib/batches";
import { idParam, type RawParam } from "@/lib/portal/params";
import { AutoRefresh } from "../../_components/auto-refresh";
import { SamplePortfolioLinks } from "../../_components/sample-portfolio";
import { DataTable, Pager } from "../../_components/data-table";
import { Badge, Card, EmptyState, PageHeader, Time } from "../../_components/ui";
import { BatchProgress } from "./progress";
import { PortfolioUpload } from "./upload";

export const metadata = { title: "Portfolios" };

export default async function Portfolios({ searchParams }: { searchParams: Promise<{ after?: RawParam }> }) {
  const { app, scope, mode, user } = await requirePartner();
  const after = idParam((await searchParams).after);
  const page = await listBatches(app.db, scope, { limit: 20, startingAfter: after });
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
