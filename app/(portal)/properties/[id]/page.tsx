import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { isUuid } from "@/lib/domain";
import { getProperty } from "@/lib/properties";
import { deliveries, timeline } from "@/lib/portal/queries";
import { AutoRefresh } from "../../../_components/auto-refresh";
import { formatDuration } from "../../../_components/charts";
import { DeliveryList } from "../../../_components/delivery-list";
import { CopyButton } from "../../../_components/copy-button";
import { Badge, Card, CodeBlock, PageHeader, Time } from "../../../_components/ui";
import { replayDeliveryAction } from "../../webhooks/actions";
import { EnrichedData } from "./enriched-data";
import { Sources } from "./sources";
import { Timeline } from "./timeline";

export const metadata = { title: "Property" };

export default async function PropertyPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { app, scope, user } = await requirePartner();
  // Scoped to the partner and mode: another partner's id is simply not found.
  const property = isUuid(id) ? await getProperty(app.db, scope, id.toLowerCase()) : null;
  if (!property) notFound();
  const [steps, sent] = await Promise.all([
    timeline(app.db, property.property_id),
    deliveries(app.db, { scope, propertyId: property.property_id }).then((page) => page.data),
  ]);
  const enriching = property.status === "enriching";
  // The request's arrival: the inline attempts start before the property row is written.
  const origin = Math.min(Date.parse(property.created_at), ...steps.map((s) => s.startedAt.getTime()));
  const end = Math.max(
    enriching ? Date.now() : Date.parse(property.enriched_at ?? property.updated_at),
    ...steps.map((s) => s.startedAt.getTime() + s.durationMs),
  );
  const json = JSON.stringify(property, null, 2);
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href="/properties" className="link">
          Properties
        </Link>{" "}
        <span aria-hidden="true" className="text-slate-400">
          /
        </span>{" "}
        <span className="font-mono text-slate-600">{property.cadastral_reference}</span>
      </nav>
      <PageHeader
        title={<span className="font-mono">{property.cadastral_reference}</span>}
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <Badge value={property.status} />
            <span>
              registered <Time value={property.created_at} seconds />
            </span>
            {property.enriched_at && (
              <span>final after {formatDuration(Date.parse(property.enriched_at) - origin)}</span>
            )}
          </span>
        }
        actions={<AutoRefresh active={enriching} message="Enrichment in progress — this page updates by itself" />}
      />
      <div className="grid gap-4 lg:grid-cols-5">
        <EnrichedData property={property} enriching={enriching} />
        <Sources property={property} />
      </div>

      <Timeline steps={steps} origin={origin} end={end} />

      {can(user.role, "endpoints", scope.mode) && (
        <Card title="Webhook deliveries" className="mt-4">
          {sent.length ? (
            <DeliveryList
              items={sent}
              label="Webhook deliveries of this property"
              replay={can(user.role, "webhooks", scope.mode) ? replayDeliveryAction : undefined}
              showEndpoint
            />
          ) : (
            <p className="text-sm text-slate-600">
              None. <code className="code-inline">property.enriched</code> is sent to every enabled endpoint when
              enrichment finishes after the create response; a property that was final in the response needs none.
            </p>
          )}
        </Card>
      )}

      <Card title="Property JSON" className="mt-4" actions={<CopyButton value={json} label="Copy JSON" />}>
        <p className="mb-2 text-xs text-slate-600">
          Exactly what <code className="code-inline">GET /api/v1/partner-api/properties/{property.property_id}</code>{" "}
          returns.
        </p>
        <div data-testid="property-json">
          <CodeBlock label="Property JSON">{json}</CodeBlock>
        </div>
      </Card>
    </>
  );
}
