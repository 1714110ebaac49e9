import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { getEndpoint } from "@/lib/webhooks/endpoints";
import { deliveries, endpointStats } from "@/lib/portal/queries";
import { AutoRefresh } from "../../../_components/auto-refresh";
import { PageHeader } from "../../../_components/ui";
import { dueSoon } from "../../../_components/delivery-list";
import { EndpointPanel } from "../endpoint-panel";

export const metadata = { title: "Webhook endpoint" };

export default async function Endpoint({ params }: { params: Promise<{ id: string }> }) {
  const { app, scope, mode, user } = await requirePartner("endpoints");
  const endpoint = await getEndpoint(app.db, scope, (await params).id);
  if (!endpoint) notFound();
  const [recent, stats] = await Promise.all([
    deliveries(app.db, { scope, endpointId: endpoint.id, limit: 25 }),
    endpointStats(app.db, [endpoint.id]),
  ]);
  const busy = dueSoon(recent.data);
  return (
    <>
      <PageHeader
        title="Webhook endpoint"
        description={
          <>
            <Link className="link" href="/webhooks">
              All endpoints
            </Link>{" "}
            ·{" "}
            <Link className="link" href={`/webhooks/deliveries?endpoint=${endpoint.id}`}>
              Search this endpoint&apos;s deliveries
            </Link>
          </>
        }
        actions={<AutoRefresh active={busy} message="Deliveries in progress — updating" />}
      />
      <EndpointPanel
        endpoint={endpoint}
        stats={stats}
        recent={recent.data}
        titleLink={false}
        edit={{ mode, allowPrivate: app.config.FINCA_WEBHOOKS_ALLOW_PRIVATE }}
        changes={can(user.role, "webhooks", mode)}
      />
    </>
  );
}
