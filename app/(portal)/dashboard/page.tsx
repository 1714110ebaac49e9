import Link from "next/link";
import { requirePartner } from "@/lib/auth/session";
import { overview } from "@/lib/portal/queries";
import { Bars, Card, EmptyState, PageHeader, Percent } from "../../_components/ui";
import { PROPERTY_STATUSES, SOURCES } from "@/drizzle/schema";

export const metadata = { title: "Overview" };

const STATUS_TONE: Record<string, string> = { enriched: "bg-emerald-500", enriching: "bg-sky-500", partially_enriched: "bg-amber-500", not_found: "bg-slate-400" };

export default async function Dashboard() {
  const { app, scope, mode } = await requirePartner();
  const data = await overview(app.db, scope);
  const total = data.byStatus.reduce((n, r) => n + r.n, 0);
  const sourceRate = (source: string) => {
    const rows = data.bySource.filter((r) => r.source === source);
    const completed = rows.find((r) => r.status === "completed")?.n ?? 0;
    const failed = rows.find((r) => r.status === "failed")?.n ?? 0;
    return { rate: completed + failed ? completed / (completed + failed) : null, pending: rows.find((r) => r.status === "pending")?.n ?? 0 };
  };
  const delivered = data.deliveries.find((d) => d.status === "succeeded")?.n ?? 0;
  const failedDeliveries = data.deliveries.find((d) => d.status === "failed")?.n ?? 0;
  return (
    <>
      <PageHeader title="Overview" description={`Your ${mode} mode at a glance.`} />
      {total === 0 ? (
        <EmptyState title={`No ${mode} properties yet`}>
          Create a {mode} API key on <Link className="underline" href="/keys">API keys</Link>, then register a property through the API or on{" "}
          <Link className="underline" href="/properties">Properties</Link>.
        </EmptyState>
      ) : (
        <div className="grid gap-4 md:grid-cols-2">
          <Card title={`Properties (${total})`}>
            <Bars label="Properties by status" items={PROPERTY_STATUSES.map((s) => ({ label: s.replaceAll("_", " "), value: data.byStatus.find((r) => r.status === s)?.n ?? 0, tone: STATUS_TONE[s] }))} />
          </Card>
          <Card title="Registered in the last 7 days">
            <div className="flex h-32 items-end gap-2" role="img" aria-label={data.last7.map((d) => `${d.day}: ${d.n}`).join(", ")}>
              {data.last7.map((d) => {
                const max = Math.max(1, ...data.last7.map((x) => x.n));
                return (
                  <div key={d.day} className="flex h-full flex-1 flex-col items-center gap-1">
                    <div className="flex w-full flex-1 items-end">
                      <div className="w-full rounded-t bg-brand-600" style={{ height: `${(d.n / max) * 100}%`, minHeight: d.n ? 4 : 0 }} />
                    </div>
                    <span className="text-[10px] text-slate-500">{d.day.slice(5)}</span>
                  </div>
                );
              })}
            </div>
          </Card>
          <Card title="Enrichment success by source">
            <table className="table">
              <thead><tr><th>Source</th><th>Success</th><th>In progress</th></tr></thead>
              <tbody>
                {SOURCES.map((s) => {
                  const r = sourceRate(s);
                  return (
                    <tr key={s}><td>{s.replace("_", " ")}</td><td><Percent value={r.rate} /></td><td className="tabular-nums">{r.pending}</td></tr>
                  );
                })}
              </tbody>
            </table>
          </Card>
          <Card title="Webhook deliveries">
            <p className="text-3xl font-semibold tabular-nums"><Percent value={delivered + failedDeliveries ? delivered / (delivered + failedDeliveries) : null} /></p>
            <p className="mt-1 text-sm text-slate-600">{delivered} delivered, {failedDeliveries} failed, {data.deliveries.find((d) => d.status === "pending")?.n ?? 0} pending</p>
          </Card>
        </div>
      )}
    </>
  );
}
