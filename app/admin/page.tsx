import Link from "next/link";
import { requireOperator } from "@/server/session";
import { adminCounts, rateLimitUsage } from "@/lib/portal/queries";
import { Meter } from "../_components/charts";
import { DataTable } from "../_components/data-table";
import { Badge, Card, PageHeader, Stat, Time } from "../_components/ui";

export const metadata = { title: "Admin" };

// A bucket at this share of the limit is "near" it.
const NEAR = 0.8;

export default async function AdminOverview() {
  const { app } = await requireOperator();
  const { RATE_LIMIT_WRITES: limit, RATE_LIMIT_WINDOW_SECONDS: window, UPSTASH_REDIS_REST_URL } = app.config;
  const [counts, usage] = await Promise.all([adminCounts(app.db), rateLimitUsage(app.db, window)]);
  const busy = usage.filter((u) => u.used > 0);
  const attention = counts.troubled_endpoints + counts.failed_deliveries;
  return (
    <>
      <PageHeader title="Overview" description="What exists, and what needs attention across partners." />
      <div className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-5">
        <Stat label="Partners" value={counts.partners} hint={`${counts.users} users`} />
        <Stat
          label="Active API keys"
          value={counts.active_keys}
          hint={
            <Link className="link" href="/admin/keys">
              Review keys
            </Link>
          }
        />
        <Stat label="Enriching now" value={counts.enriching} hint="properties not final yet" />
        <Stat
          label="Endpoints needing attention"
          value={counts.troubled_endpoints}
          hint={
            attention ? (
              <Link className="link" href="/admin/webhooks">
                Review webhooks
              </Link>
            ) : (
              "all healthy"
            )
          }
        />
        <Stat label="Failed deliveries" value={counts.failed_deliveries} hint="retries exhausted" />
      </div>
      <Card
        title="Rate limit usage"
        actions={
          <span className="text-xs text-slate-600">
            {limit} writes per {window} s, per partner and mode
          </span>
        }
      >
        {UPSTASH_REDIS_REST_URL ? (
          <p className="text-sm text-slate-600">
            The rate limit is kept in Upstash Redis on this deployment; its usage is not stored in the database.
          </p>
        ) : busy.length ? (
          <DataTable
            label="Rate limit usage"
            rows={busy}
            rowKey={(u) => `${u.partner}-${u.mode}`}
            columns={[
              { header: "Partner", cell: (u) => u.partner },
              { header: "Mode", cell: (u) => <Badge value={u.mode} /> },
              {
                header: "Writes in the current window",
                className: "w-1/3",
                cell: (u) => (
                  <Meter value={u.used} max={limit} label={`${u.partner} ${u.mode}: ${u.used} of ${limit}`} />
                ),
              },
              {
                header: "State",
                cell: (u) =>
                  u.used >= limit ? (
                    <Badge value="over" label="at the limit" />
                  ) : u.used >= limit * NEAR ? (
                    <Badge value="near" label="near the limit" />
                  ) : (
                    <Badge value="ok" />
                  ),
              },
              { header: "Last write", cell: (u) => <Time value={u.lastHit} seconds />, from: "sm" },
            ]}
          />
        ) : (
          <p className="text-sm text-slate-600">No writes in the last {window} seconds.</p>
        )}
      </Card>
    </>
  );
}
