import Link from "next/link";
import { requirePartner } from "@/server/session";
import { listEndpoints } from "@/lib/webhooks/endpoints";
import { deliveries, endpointStats } from "@/lib/portal/queries";
import { AutoRefresh } from "../../_components/auto-refresh";
import { ActionButton } from "../../_components/action-button";
import { Badge, Card, EmptyState, PageHeader, Percent, Time } from "../../_components/ui";
import { deleteEndpointAction, replayDeliveryAction, replayFailedAction, rotateSecretAction, sendTestEventAction, toggleEndpointAction } from "../actions";
import { CreateEndpointForm, RevealSecret } from "../forms";

export const metadata = { title: "Webhooks" };

// Deliveries due within this window keep the page refreshing; later retries do not.
const SOON_MS = 60_000;

export default async function Webhooks() {
  const { app, scope, mode } = await requirePartner();
  const endpoints = await listEndpoints(app.db, scope);
  const [logs, stats] = await Promise.all([
    Promise.all(endpoints.map((e) => deliveries(app.db, { endpointId: e.id, limit: 20 }))),
    endpointStats(app.db, endpoints.map((e) => e.id)),
  ]);
  const now = Date.now();
  const busy = logs.flat().some((d) => d.delivery.status === "pending" && (!d.delivery.nextAttemptAt || d.delivery.nextAttemptAt.getTime() - now < SOON_MS));
  const countOf = (endpointId: string, status: string) => stats.find((s) => s.endpointId === endpointId && s.status === status)?.n ?? 0;
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={<>Finca sends <code className="code-inline">property.enriched</code> to your {mode} endpoints, signed per Standard Webhooks, retrying for about 28 hours. <Link className="link" href="/docs#verify-webhooks">Verify signatures</Link></>}
        actions={<AutoRefresh active={busy} message="Deliveries in progress — updating" />}
      />
      <Card title="Add an endpoint" className="mb-6">
        <CreateEndpointForm mode={mode} />
      </Card>
      {endpoints.length === 0 && <EmptyState title={`No ${mode} endpoints`}>Add one to be told when enrichment finishes, then send it a test event.</EmptyState>}
      <div className="space-y-6">
        {endpoints.map((e, i) => {
          const ok = countOf(e.id, "succeeded");
          const failed = countOf(e.id, "failed");
          const failedShown = logs[i]!.filter((d) => d.delivery.status === "failed").length;
          return (
            <Card
              key={e.id}
              title={
                <span className="flex flex-wrap items-center gap-2">
                  <span className="break-all font-mono text-sm">{e.url}</span>
                  {e.enabled ? <Badge value={e.failingSince ? "failing" : "enabled"} /> : <Badge value="disabled" label={`disabled${e.disabledReason ? `: ${e.disabledReason.replaceAll("_", " ")}` : ""}`} />}
                </span>
              }
            >
              <div className="mb-4 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600">
                {e.description && <span className="text-slate-800">{e.description}</span>}
                <span>added <Time value={e.createdAt} /></span>
                <span>last 7 days: <span className="font-medium text-slate-900"><Percent value={ok + failed ? ok / (ok + failed) : null} /></span> delivered ({ok} ok, {failed} failed)</span>
                {e.failingSince && <span className="text-amber-800">failing since <Time value={e.failingSince} /></span>}
              </div>
              <div className="mb-4">
                <RevealSecret endpointId={e.id} />
              </div>
              <div className="mb-5 flex flex-wrap gap-2">
                <ActionButton action={sendTestEventAction} id={e.id} className="btn-secondary" pendingText="Sending…">Send test event</ActionButton>
                <ActionButton action={rotateSecretAction} id={e.id} className="btn-secondary" pendingText="Rotating…" confirm="Rotate the signing secret? The current one keeps signing alongside the new one for 24 hours.">Rotate secret</ActionButton>
                {(failedShown > 0 || failed > 0) && (
                  <ActionButton action={replayFailedAction} id={e.id} className="btn-secondary" pendingText="Queuing…">Replay all failed</ActionButton>
                )}
                <ActionButton action={toggleEndpointAction} id={e.id} className="btn-secondary" pendingText="Saving…" confirm={e.enabled ? "Disable this endpoint? New events will not be sent to it until you enable it again." : undefined}>{e.enabled ? "Disable" : "Enable"}</ActionButton>
                <ActionButton action={deleteEndpointAction} id={e.id} className="btn-danger" pendingText="Deleting…" confirm="Delete this endpoint? Pending deliveries to it stop and its history is no longer shown.">Delete</ActionButton>
              </div>
              <h3 className="mb-2 text-sm font-semibold text-slate-900">Recent deliveries</h3>
              {logs[i]!.length ? (
                <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm" aria-label={`Deliveries to ${e.url}`}>
                  {logs[i]!.map((d) => (
                    <li key={d.delivery.id} className="p-3" data-testid="delivery">
                      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                        <Badge value={d.delivery.status} />
                        <span className="font-mono text-xs font-medium">{d.eventType}</span>
                        <span className="text-xs text-slate-600"><Time value={d.delivery.createdAt} seconds /></span>
                        <span className="text-xs text-slate-600">
                          {d.delivery.attempts} attempt{d.delivery.attempts === 1 ? "" : "s"}
                          {d.delivery.status === "pending" && d.delivery.nextAttemptAt && <> · next <Time value={d.delivery.nextAttemptAt} seconds /></>}
                        </span>
                        <ActionButton action={replayDeliveryAction} id={d.delivery.id} formClassName="ml-auto" className="btn-secondary btn-sm" pendingText="Queuing…">Replay</ActionButton>
                      </div>
                      {d.attempts.length > 0 && (
                        <details className="mt-2">
                          <summary className="cursor-pointer text-xs font-medium text-brand-700">Attempts and responses</summary>
                          <ol className="mt-2 space-y-2">
                            {d.attempts.map((a) => (
                              <li key={a.id} className="rounded-md bg-slate-50 p-2 text-xs text-slate-700">
                                <div className="flex flex-wrap gap-x-3">
                                  <Time value={a.startedAt} seconds />
                                  <span>{a.trigger.replace("_", " ")}</span>
                                  <span className={a.statusCode && a.statusCode < 300 ? "font-medium text-emerald-800" : "font-medium text-red-700"}>
                                    {a.statusCode ? `HTTP ${a.statusCode}` : (a.errorClass ?? "error").replaceAll("_", " ")}
                                  </span>
                                  <span className="tabular-nums">{a.durationMs} ms</span>
                                </div>
                                {a.error && <p className="mt-1 break-words text-red-700">{a.error}</p>}
                                {a.responseBody && <pre className="mt-1 max-h-32 overflow-auto whitespace-pre-wrap break-all rounded bg-white p-1.5 font-mono text-[11px] text-slate-700 ring-1 ring-slate-200">{a.responseBody}</pre>}
                              </li>
                            ))}
                          </ol>
                        </details>
                      )}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-slate-600">No deliveries yet. Send a test event to check that your endpoint answers 2xx and verifies the signature.</p>
              )}
            </Card>
          );
        })}
      </div>
    </>
  );
}
