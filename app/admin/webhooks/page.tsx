import { requireAdmin } from "@/lib/auth/session";
import { failedDeliveries, troubledEndpoints } from "@/lib/portal/queries";
import { Badge, Card, EmptyState, PageHeader, Time } from "../../_components/ui";
import { adminEnableEndpoint, adminReplayDelivery } from "../actions";

export const metadata = { title: "Webhooks needing attention" };

export default async function AdminWebhooks() {
  const { app } = await requireAdmin();
  const [endpoints, deliveries] = await Promise.all([troubledEndpoints(app.db), failedDeliveries(app.db)]);
  return (
    <>
      <PageHeader title="Webhooks needing attention" description="Disabled or failing endpoints, and deliveries that failed or are being retried, across partners." />
      <Card title="Endpoints" className="mb-6">
        {endpoints.length ? (
          <ul className="space-y-2 text-sm">
            {endpoints.map(({ endpoint: e, partner }) => (
              <li key={e.id} className="flex flex-wrap items-center gap-2">
                {e.enabled ? <Badge value="partially_enriched" label="failing" /> : <Badge value="disabled" label={`disabled: ${e.disabledReason ?? ""}`} />}
                <span className="font-medium">{partner}</span> <Badge value={e.mode} />
                <span className="break-all font-mono text-xs">{e.url}</span>
                {e.failingSince && <span className="text-slate-600">failing since <Time value={e.failingSince} /></span>}
                {!e.enabled && (
                  <form action={adminEnableEndpoint} className="ml-auto"><input type="hidden" name="id" value={e.id} /><button className="btn-secondary">Re-enable</button></form>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState title="All endpoints healthy" />
        )}
      </Card>
      <Card title="Deliveries">
        {deliveries.length ? (
          <ul className="space-y-2 text-sm">
            {deliveries.map(({ delivery: d, partner, url, eventType }) => (
              <li key={d.id} className="flex flex-wrap items-center gap-2" data-testid="admin-delivery">
                <Badge value={d.status} /> <span className="font-medium">{partner}</span> <span className="font-mono">{eventType}</span>
                <span className="break-all font-mono text-xs text-slate-600">{url}</span>
                <span className="text-slate-600">{d.attempts} attempts · {d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : d.lastError}</span>
                <form action={adminReplayDelivery} className="ml-auto"><input type="hidden" name="id" value={d.id} /><button className="btn-secondary">Replay</button></form>
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState title="No failed deliveries" />
        )}
      </Card>
    </>
  );
}
