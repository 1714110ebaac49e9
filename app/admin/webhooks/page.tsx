import { requireOperator } from "@/server/session";
import { LookupForm } from "../../_components/filters";
import { deliveries as searchDeliveries, failedDeliveries, troubledEndpoints } from "@/lib/portal/queries";
import { lookupOf, type LookupParams } from "@/lib/portal/params";
import { DeliveryList } from "../../_components/delivery-list";
import { ActionButton } from "../../_components/action-button";
import { DataTable } from "../../_components/data-table";
import { Badge, Card, EmptyState, PageHeader, Time } from "../../_components/ui";
import { adminEnableEndpoint, adminReplayDelivery, adminReplayFailed } from "../actions";
import { countOf } from "@/lib/portal/format";

export const metadata = { title: "Webhooks needing attention" };

export default async function AdminWebhooks({ searchParams }: { searchParams: Promise<LookupParams> }) {
  const { app } = await requireOperator();
  const { q, partner } = lookupOf(await searchParams, 100);
  const [endpoints, deliveries, found] = await Promise.all([
    troubledEndpoints(app.db),
    failedDeliveries(app.db),
    q || partner ? searchDeliveries(app.db, { q, partnerId: partner, limit: 50 }) : null,
  ]);
  return (
    <>
      <PageHeader
        title="Webhooks needing attention"
        description="Disabled or failing endpoints, and deliveries that failed or are being retried, across partners. Look up any delivery by the webhook-id a partner quotes."
      />
      <Card title="Look up deliveries" className="mb-6">
        <LookupForm
          label="Find deliveries"
          field="webhook-id or property id"
          value={q}
          placeholder="msg_… or a property id"
          clearHref="/admin/webhooks"
          kept={{ partner }}
          className="max-w-2xl"
        />
        {found &&
          (found.data.length ? (
            <DeliveryList
              items={found.data}
              label="Deliveries found"
              replay={adminReplayDelivery}
              showEndpoint
              showPartner
            />
          ) : (
            <EmptyState title="No deliveries match" />
          ))}
      </Card>
      <Card title={`Endpoints (${endpoints.length})`} className="mb-6">
        {endpoints.length ? (
          <ul className="divide-y divide-slate-100 text-sm">
            {endpoints.map(({ endpoint: e, partner }) => (
              <li key={e.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3 first:pt-0 last:pb-0">
                {e.enabled ? (
                  <Badge value="failing" />
                ) : (
                  <Badge
                    value="disabled"
                    label={`disabled${e.disabledReason ? `: ${e.disabledReason.replaceAll("_", " ")}` : ""}`}
                  />
                )}
                <span className="font-medium">{partner}</span>
                <Badge value={e.mode} />
                <span className="min-w-0 break-all font-mono text-xs text-slate-700">{e.url}</span>
                {e.failingSince && (
                  <span className="text-xs text-slate-600">
                    failing since <Time value={e.failingSince} />
                  </span>
                )}
                <span className="ml-auto flex gap-2">
                  <ActionButton action={adminReplayFailed} id={e.id} pendingText="Queuing…">
                    Replay failed
                  </ActionButton>
                  {!e.enabled && (
                    <ActionButton
                      action={adminEnableEndpoint}
                      id={e.id}
                      pendingText="Enabling…"
                      confirm={`Re-enable ${e.url} for ${partner}?`}
                    >
                      Re-enable
                    </ActionButton>
                  )}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState title="All endpoints healthy" />
        )}
      </Card>
      <Card title={`Deliveries (${deliveries.length})`}>
        {deliveries.length ? (
          <DataTable
            label="Failed or retrying deliveries"
            rows={deliveries}
            rowKey={({ delivery }) => delivery.id}
            rowTestId="admin-delivery"
            columns={[
              {
                header: "Status",
                cell: ({ delivery: d }) => <Badge value={d.status === "pending" ? "retrying" : d.status} />,
              },
              { header: "Partner", cell: ({ partner }) => partner },
              { header: "Event", cell: ({ eventType }) => eventType, from: "sm", className: "font-mono text-xs" },
              {
                header: "Endpoint",
                from: "lg",
                className: "max-w-xs truncate font-mono text-xs",
                cell: ({ url }) => <span title={url}>{url}</span>,
              },
              {
                header: "Last answer",
                className: "text-xs",
                cell: ({ delivery: d }) => (
                  <>
                    {countOf(d.attempts, "attempt")} ·{" "}
                    {d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : (d.lastError?.slice(0, 80) ?? "no answer")}
                  </>
                ),
              },
              { header: "Updated", cell: ({ delivery: d }) => <Time value={d.updatedAt} />, from: "md" },
              {
                header: null,
                className: "text-right",
                cell: ({ delivery: d }) => (
                  <ActionButton action={adminReplayDelivery} id={d.id} pendingText="Queuing…">
                    Replay
                  </ActionButton>
                ),
              },
            ]}
          />
        ) : (
          <EmptyState title="No failed deliveries" />
        )}
      </Card>
    </>
  );
}
