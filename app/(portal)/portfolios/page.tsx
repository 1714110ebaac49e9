import Link from "next/link";
import { requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { listBatches } from "@/lib/batches";
import { idParam, type RawParam } from "@/lib/portal/params";
import { AutoRefresh } from "../../_components/auto-refresh";
import { SamplePortfolioLinks } from "../../_components/sample-portfolio";
import { Badge, Card, EmptyState, PageHeader, TableWrap, Time } from "../../_components/ui";
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
        <TableWrap label="Portfolios">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col" className="min-w-48">
                  Progress
                </th>
                <th scope="col" className="hidden md:table-cell">
                  Submitted
                </th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((b) => (
                <tr key={b.batch_id}>
                  <td>
                    <Link className="link" href={`/portfolios/${b.batch_id}`}>
                      {b.name ?? b.batch_id.slice(0, 8)}
                    </Link>
                  </td>
                  <td>
                    <Badge value={b.status} />
                  </td>
                  <td>
                    <BatchProgress counts={b.counts} compact />
                  </td>
                  <td className="hidden md:table-cell">
                    <Time value={b.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {(page.has_more || after) && (
            <div className="flex justify-between gap-2 border-t border-slate-100 p-3">
              {after ? (
                <Link className="btn-secondary" href="/portfolios">
                  First page
                </Link>
              ) : (
                <span />
              )}
              {page.has_more && (
                <Link className="btn-secondary" href={`/portfolios?after=${page.next_starting_after}`}>
                  Next page
                </Link>
              )}
            </div>
          )}
        </TableWrap>
      ) : (
        <EmptyState title={`No ${mode} portfolios yet`}>
          Upload a file above, or send one with POST /batches (see the Portfolios guide in the docs).
        </EmptyState>
      )}
    </>
  );
}
