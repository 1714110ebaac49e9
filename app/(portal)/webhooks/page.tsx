import Link from "next/link";
import { requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { listEndpoints } from "@/lib/webhooks/endpoints";
import { deliveries, endpointStats } from "@/lib/portal/queries";
import { AutoRefresh } from "../../_components/auto-refresh";
import { Card, EmptyState, PageHeader } from "../../_components/ui";
import { dueSoon } from "../../_components/delivery-list";
import { aboutTotal } from "@/lib/portal/durations";
import { CreateEndpointForm } from "./forms";
import { EndpointPanel } from "./endpoint-panel";

export const metadata = { title: "Webhooks" };

export default async function Webhooks() {
  const { app, scope, mode, user } = await requirePartner("endpoints");
  const changes = can(user.role, "webhooks", mode);
  const endpoints = await listEndpoints(app.db, scope);
  const [logs, stats] = await Promise.all([
    Promise.all(endpoints.map(async (e) => (await deliveries(app.db, { scope, endpointId: e.id, limit: 10 })).data)),
    endpointStats(
      app.db,
      endpoints.map((e) => e.id),
    ),
  ]);
  const busy = dueSoon(logs.flat());
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={
          <>
            Finca sends <code className="code-inline">property.enriched</code> to your {mode} endpoints, signed per
            Standard Webhooks, retrying for{" "}
            {aboutTotal(mode === "live" ? app.config.WEBHOOK_RETRY_SCHEDULE : app.config.WEBHOOK_RETRY_SCHEDULE_TEST)}.{" "}
            <Link className="link" href="/docs#verify-webhooks">
              Verify signatures
            </Link>{" "}
            ·{" "}
            <Link className="link" href="/webhooks/deliveries">
              Search deliveries
            </Link>
          </>
        }
        actions={<AutoRefresh active={busy} message="Deliveries in progress — updating" />}
      />
      {changes && (
        <Card title="Add an endpoint" className="mb-6">
          <CreateEndpointForm mode={mode} allowPrivate={app.config.FINCA_WEBHOOKS_ALLOW_PRIVATE} />
        </Card>
      )}
      {endpoints.length === 0 && (
        <EmptyState title={`No ${mode} endpoints`}>
          Add one to be told when enrichment finishes, then send it a test event.
        </EmptyState>
      )}
      <div className="space-y-6">
        {endpoints.map((e, i) => (
          <EndpointPanel key={e.id} endpoint={e} stats={stats} recent={logs[i]!} titleLink changes={changes} />
        ))}
      </div>
    </>
  );
}
