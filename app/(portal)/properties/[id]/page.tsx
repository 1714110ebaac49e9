import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePartner } from "@/lib/auth/session";
import { getPropertyJson } from "@/lib/properties";
import { deliveries, timeline } from "@/lib/portal/queries";
import { AutoRefresh } from "../../../_components/auto-refresh";
import { Badge, Card, EmptyState, PageHeader, Time } from "../../../_components/ui";
import { replayDeliveryAction } from "../../actions";

export const metadata = { title: "Property" };

export default async function PropertyPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { app, scope } = await requirePartner();
  // Scoped to the partner and mode: another partner's id is simply not found.
  const property = /^[0-9a-f-]{36}$/i.test(id) ? await getPropertyJson(app.db, scope, id.toLowerCase()) : null;
  if (!property) notFound();
  const [steps, sent] = await Promise.all([timeline(app.db, property.property_id), deliveries(app.db, { propertyId: property.property_id })]);
  const facts: [string, React.ReactNode][] = [
    ["Address", property.address],
    ["Municipality", property.municipality],
    ["Province", property.province],
    ["Autonomous community", property.ccaa],
    ["Year built", property.year_built],
    ["Climate zone", property.climate_zone],
    ["Energy rating", property.energy_certificate ? `${property.energy_certificate.rating} (${property.energy_certificate.source})` : null],
    ["ITE", <Badge key="ite" value={property.ite_fetch_status} />],
  ];
  return (
    <>
      <PageHeader
        title={property.cadastral_reference}
        description={<span className="inline-flex items-center gap-2">Status <Badge value={property.status} /> · registered <Time value={property.created_at} /></span>}
        actions={<Link href="/properties" className="btn-secondary">All properties</Link>}
      />
      <AutoRefresh active={property.status === "enriching"} />
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <Card title="Enriched data">
          <dl className="grid grid-cols-[10rem_1fr] gap-x-3 gap-y-2 text-sm">
            {facts.map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="text-slate-600">{k}</dt>
                <dd className="text-slate-900">{v ?? <span className="text-slate-400">not yet known</span>}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <Card title="Sources">
          <ul className="space-y-2 text-sm">
            {Object.entries(property.enrichment).map(([source, e]) => (
              <li key={source} className="flex flex-wrap items-center gap-2">
                <span className="w-40 font-medium">{source.replace("_", " ")}</span>
                <Badge value={e.status} />
                <span className="text-slate-600">{e.attempts} attempt{e.attempts === 1 ? "" : "s"}</span>
                {e.error && <span className="text-red-700">last error: {e.error}</span>}
              </li>
            ))}
          </ul>
        </Card>
      </div>
      <Card title="Timeline" className="mt-4">
        {steps.length ? (
          <ol className="space-y-2 text-sm">
            {steps.map((s) => (
              <li key={s.id} className="grid grid-cols-[auto_1fr] gap-3 sm:grid-cols-[14rem_10rem_1fr]">
                <Time value={s.startedAt} />
                <span className="font-medium">{s.source.replace("_", " ")} #{s.attempt}</span>
                <span>
                  <Badge value={s.outcome === "completed" ? "completed" : s.outcome === "not_found" ? "not_found" : "failed"} label={s.outcome} /> {s.durationMs} ms · {s.trigger}
                  {s.error && <span className="text-red-700"> · {s.error}</span>}
                </span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-sm text-slate-600">No attempts recorded yet.</p>
        )}
      </Card>
      <Card title="Webhook deliveries" className="mt-4">
        {sent.length ? (
          <ul className="space-y-3 text-sm">
            {sent.map((d) => (
              <li key={d.delivery.id} className="flex flex-wrap items-center gap-2">
                <Badge value={d.delivery.status} />
                <span className="font-mono">{d.eventType}</span>
                <span className="truncate text-slate-600">{d.url}</span>
                <span className="text-slate-600">{d.delivery.attempts} attempt(s){d.delivery.lastStatusCode ? `, last HTTP ${d.delivery.lastStatusCode}` : ""}</span>
                <form action={replayDeliveryAction}>
                  <input type="hidden" name="id" value={d.delivery.id} />
                  <button className="btn-secondary">Replay</button>
                </form>
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState title="No deliveries">property.enriched is sent when enrichment finishes after the create response, to every enabled endpoint.</EmptyState>
        )}
      </Card>
      <Card title="Property JSON (as the API returns it)" className="mt-4">
        <pre className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100" data-testid="property-json">{JSON.stringify(property, null, 2)}</pre>
      </Card>
    </>
  );
}
