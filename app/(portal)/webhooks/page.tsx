import { requirePartner } from "@/lib/auth/session";
import { listEndpoints, signingSecrets } from "@/lib/webhooks/endpoints";
import { deliveries } from "@/lib/portal/queries";
import { ConfirmSubmit } from "../../_components/confirm-submit";
import { Badge, Card, EmptyState, PageHeader, Time } from "../../_components/ui";
import { deleteEndpointAction, replayDeliveryAction, replayFailedAction, rotateSecretAction, sendTestEventAction, toggleEndpointAction } from "../actions";
import { CreateEndpointForm } from "../forms";

export const metadata = { title: "Webhooks" };

const hidden = (id: string) => <input type="hidden" name="id" value={id} />;

export default async function Webhooks() {
  const { app, scope, mode } = await requirePartner();
  const endpoints = await listEndpoints(app.db, scope);
  const logs = await Promise.all(endpoints.map((e) => deliveries(app.db, { endpointId: e.id, limit: 20 })));
  return (
    <>
      <PageHeader title="Webhooks" description={<>Finca sends <code>property.enriched</code> (Standard Webhooks) to your {mode} endpoints, retrying for about 28 hours.</>} />
      <Card title="Add an endpoint" className="mb-6">
        <CreateEndpointForm mode={mode} />
      </Card>
      {endpoints.length === 0 && <EmptyState title={`No ${mode} endpoints`}>Add one to be told when enrichment finishes.</EmptyState>}
      <div className="space-y-6">
        {endpoints.map((e, i) => (
          <Card key={e.id} title={<span className="flex flex-wrap items-center gap-2 break-all"><span className="font-mono text-sm">{e.url}</span> {e.enabled ? <Badge value="succeeded" label="enabled" /> : <Badge value="disabled" label={`disabled: ${e.disabledReason ?? ""}`} />}</span>}>
            {e.description && <p className="mb-2 text-sm text-slate-600">{e.description}</p>}
            <details className="mb-3 text-sm">
              <summary className="cursor-pointer text-brand-700 underline">Reveal signing secret</summary>
              <div className="mt-2 space-y-1">
                {signingSecrets(e).map((s, n) => (
                  <p key={s}><code className="break-all rounded bg-slate-100 px-2 py-1 font-mono">{s}</code> {n === 1 && <span className="text-xs text-slate-600">(previous, valid until <Time value={e.previousSecretExpiresAt} />)</span>}</p>
                ))}
              </div>
            </details>
            <div className="mb-4 flex flex-wrap gap-2">
              <form action={sendTestEventAction}>{hidden(e.id)}<button className="btn-secondary">Send test event</button></form>
              <form action={rotateSecretAction}>{hidden(e.id)}<ConfirmSubmit className="btn-secondary" message="Rotate the secret? The old one keeps signing for 24 hours.">Rotate secret</ConfirmSubmit></form>
              <form action={replayFailedAction}>{hidden(e.id)}<input type="hidden" name="hours" value="48" /><button className="btn-secondary">Replay failed (48 h)</button></form>
              <form action={toggleEndpointAction}>{hidden(e.id)}<button className="btn-secondary">{e.enabled ? "Disable" : "Enable"}</button></form>
              <form action={deleteEndpointAction}>{hidden(e.id)}<ConfirmSubmit message="Delete this endpoint? Pending deliveries to it stop.">Delete</ConfirmSubmit></form>
            </div>
            <h3 className="mb-2 text-sm font-semibold">Recent deliveries</h3>
            {logs[i]!.length ? (
              <ul className="space-y-3 text-sm" aria-label={`Deliveries to ${e.url}`}>
                {logs[i]!.map((d) => (
                  <li key={d.delivery.id} className="rounded-md border border-slate-200 p-3" data-testid="delivery">
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge value={d.delivery.status} />
                      <span className="font-mono">{d.eventType}</span>
                      <span className="text-slate-600"><Time value={d.delivery.createdAt} /></span>
                      <span className="font-mono text-xs text-slate-500">{d.delivery.messageId}</span>
                      <form action={replayDeliveryAction} className="ml-auto">{hidden(d.delivery.id)}<button className="btn-secondary">Replay</button></form>
                    </div>
                    <ol className="mt-2 space-y-1 text-xs text-slate-700">
                      {d.attempts.map((a) => (
                        <li key={a.id}>
                          <Time value={a.startedAt} /> · {a.trigger} · {a.statusCode ? `HTTP ${a.statusCode}` : a.errorClass} · {a.durationMs} ms
                          {a.responseBody && <span className="block truncate font-mono text-slate-500">{a.responseBody.slice(0, 200)}</span>}
                        </li>
                      ))}
                    </ol>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-600">No deliveries yet. Send a test event to check your endpoint.</p>
            )}
          </Card>
        ))}
      </div>
    </>
  );
}
