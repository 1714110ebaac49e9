import Link from "next/link";
import { requireOperator } from "@/server/session";
import { adminCounts, rateLimitUsage } from "@/lib/portal/queries";
import { Meter } from "../_components/charts";
import { Badge, Card, PageHeader, Stat, TableWrap, Time } from "../_components/ui";

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
          <TableWrap label="Rate limit usage">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Partner</th>
                  <th scope="col">Mode</th>
                  <th scope="col" className="w-1/3">
                    Writes in the current window
                  </th>
                  <th scope="col">State</th>
                  <th scope="col" className="hidden sm:table-cell">
                    Last write
                  </th>
                </tr>
              </thead>
              <tbody>
                {busy.map((u) => (
                  <tr key={`${u.partner}-${u.mode}`}>
                    <td>{u.partner}</td>
                    <td>
                      <Badge value={u.mode} />
                    </td>
                    <td>
                      <Meter value={u.used} max={limit} label={`${u.partner} ${u.mode}: ${u.used} of ${limit}`} />
                    </td>
                    <td>
                      {u.used >= limit ? (
                        <Badge value="over" label="at the limit" />
                      ) : u.used >= limit * NEAR ? (
                        <Badge value="near" label="near the limit" />
                      ) : (
                        <Badge value="ok" />
                      )}
                    </td>
                    <td className="hidden sm:table-cell">
                      <Time value={u.lastHit} seconds />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : (
          <p className="text-sm text-slate-600">No writes in the last {window} seconds.</p>
        )}
      </Card>
    </>
  );
}
