import Link from "next/link";
import { requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { overview } from "@/lib/portal/queries";
import { PROPERTY_STATUSES, SOURCES } from "@/lib/domain";
import { Columns, Donut, formatDuration, StackedBar } from "../../_components/charts";
import { Card, EmptyState, PageHeader, Percent, Stat } from "../../_components/ui";

export const metadata = { title: "Overview" };

const STATUS_COLOR: Record<string, string> = {
  enriched: "text-emerald-500",
  enriching: "text-sky-500",
  partially_enriched: "text-amber-500",
  not_found: "text-slate-400",
};
const SOURCE_LABEL: Record<string, string> = {
  cadastre: "Cadastre",
  energy_certificate: "Energy certificate",
  ite: "Building inspection (ITE)",
};

export default async function Dashboard() {
  const { app, scope, mode, user } = await requirePartner();
  const data = await overview(app.db, scope);
  const count = <T extends { n: number }>(rows: T[], match: (r: T) => boolean) =>
    rows.filter(match).reduce((n, r) => n + r.n, 0);
  const total = count(data.byStatus, () => true);
  const delivered = count(data.deliveries, (d) => d.status === "succeeded");
  const failedDeliveries = count(data.deliveries, (d) => d.status === "failed");
  const retryingDeliveries = count(data.deliveries, (d) => d.status === "retrying");
  const pendingDeliveries = count(data.deliveries, (d) => d.status === "pending") + retryingDeliveries;
  const settled = total - count(data.byStatus, (r) => r.status === "enriching");
  const enriched = count(data.byStatus, (r) => r.status === "enriched");
  const partial = count(data.byStatus, (r) => r.status === "partially_enriched");

  if (total === 0) {
    return (
      <>
        <PageHeader title="Overview" description={`Your ${mode} mode at a glance.`} />
        <EmptyState
          title={`No ${mode} properties yet`}
          action={
            can(user.role, "keys", mode) && (
              <Link className="btn" href="/keys">
                Create a {mode} API key
              </Link>
            )
          }
        >
          Register a property through the API with a {mode} key, or from{" "}
          <Link className="link" href="/properties">
            Properties
          </Link>
          . Figures appear here as soon as the first one arrives.
          {mode === "test" && (
            <>
              {" "}
              The{" "}
              <Link className="link" href="/docs#scenarios">
                sandbox scenarios
              </Link>{" "}
              show retries and failures on purpose.
            </>
          )}
        </EmptyState>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Overview"
        description={`Your ${mode} mode at a glance: registrations, enrichment and webhooks.`}
        actions={
          <Link href="/properties" className="btn-secondary">
            View properties
          </Link>
        }
      />
      <div className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Properties" value={total} hint={`${total - settled} still enriching`} />
        <Stat
          label="Fully enriched"
          value={<Percent value={settled ? enriched / settled : null} />}
          hint={`of ${settled} finished; ${partial} partially`}
        />
        <Stat
          label="Time to final state"
          value={data.timing.p50 === null ? "—" : formatDuration(data.timing.p50 * 1000)}
          hint={
            data.timing.p95 === null ? "median" : `median; 95th percentile ${formatDuration(data.timing.p95 * 1000)}`
          }
        />
        <Stat
          label="Webhook success"
          value={
            <Percent
              value={
                delivered + failedDeliveries + retryingDeliveries
                  ? delivered / (delivered + failedDeliveries + retryingDeliveries)
                  : null
              }
            />
          }
          hint={`${delivered} delivered, ${failedDeliveries + retryingDeliveries} failing (${failedDeliveries} failed, ${retryingDeliveries} retrying)`}
        />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Properties by status">
          <Donut
            label="Properties by status"
            caption="properties"
            segments={PROPERTY_STATUSES.map((s) => ({
              label: s.replaceAll("_", " "),
              value: count(data.byStatus, (r) => r.status === s),
              color: STATUS_COLOR[s]!,
            }))}
          />
        </Card>
        <Card title="Registered per day" actions={<span className="text-xs text-slate-600">last 14 days</span>}>
          <Columns
            label="Properties registered per day"
            series={[{ label: "registered", color: "text-brand-600" }]}
            points={data.daily.map((d) => ({ day: d.day, values: [d.registered] }))}
          />
        </Card>
        <Card title="Enrichment success by source">
          <ul className="space-y-4">
            {SOURCES.map((s) => {
              const completed = count(data.bySource, (r) => r.source === s && r.status === "completed");
              const failed = count(data.bySource, (r) => r.source === s && r.status === "failed");
              const pending = count(data.bySource, (r) => r.source === s && r.status === "pending");
              return (
                <li key={s}>
                  <div className="mb-1.5 flex items-baseline justify-between gap-2 text-sm">
                    <span className="font-medium text-slate-800">{SOURCE_LABEL[s]}</span>
                    <span className="text-slate-600">
                      <span className="font-semibold text-slate-900">
                        <Percent value={completed + failed ? completed / (completed + failed) : null} />
                      </span>{" "}
                      success
                    </span>
                  </div>
                  <StackedBar
                    label={SOURCE_LABEL[s]!}
                    segments={[
                      { label: "answered", value: completed, color: "text-emerald-500" },
                      { label: "gave up", value: failed, color: "text-red-500" },
                      { label: "retrying", value: pending, color: "text-sky-400" },
                    ]}
                  />
                  <p className="mt-1 text-xs text-slate-600">
                    {completed} answered · {failed} gave up after retries · {pending} retrying
                  </p>
                </li>
              );
            })}
          </ul>
        </Card>
        <Card
          title="Webhook deliveries"
          actions={
            <Link href="/webhooks" className="link text-sm">
              Endpoints
            </Link>
          }
        >
          {delivered + failedDeliveries + pendingDeliveries === 0 ? (
            <p className="text-sm text-slate-600">
              No deliveries yet.{" "}
              <Link className="link" href="/webhooks">
                Add an endpoint
              </Link>{" "}
              to receive <code className="code-inline">property.enriched</code> when enrichment finishes after the
              API&apos;s answer.
            </p>
          ) : (
            <Columns
              label="Webhook deliveries per day"
              series={[
                { label: "delivered", color: "text-emerald-500" },
                { label: "failed", color: "text-red-500" },
              ]}
              points={data.daily.map((d) => ({ day: d.day, values: [d.delivered, d.failed] }))}
            />
          )}
          {pendingDeliveries > 0 && (
            <p className="mt-2 text-xs text-slate-600">{pendingDeliveries} being delivered or retried.</p>
          )}
        </Card>
      </div>
    </>
  );
}
