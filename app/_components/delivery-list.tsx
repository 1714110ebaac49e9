import Link from "next/link";
import type { deliveries } from "@/lib/portal/queries";
import { ActionButton, type ButtonAction } from "./action-button";
import { BodyView } from "./body-view";
import { Badge, Time } from "./ui";
import { countOf } from "@/lib/portal/format";

export type DeliveryItem = Awaited<ReturnType<typeof deliveries>>["data"][number];

// Deliveries due within this window keep a page refreshing; later retries do not.
const SOON_MS = 60_000;

/** Whether any delivery is pending with its next attempt due soon (the page should refresh itself). */
export function dueSoon(items: DeliveryItem[], now = Date.now()): boolean {
  return items.some(
    (d) =>
      d.delivery.status === "pending" &&
      (!d.delivery.nextAttemptAt || d.delivery.nextAttemptAt.getTime() - now < SOON_MS),
  );
}

/**
 * Deliveries as a partner debugs them: status (retrying apart), event, the `webhook-id` their
 * receiver logged, the property, the exact body that was signed, and each attempt's answer.
 */
export function DeliveryList({
  items,
  label,
  replay,
  propertyHref,
  showEndpoint = false,
  showPartner = false,
}: {
  items: DeliveryItem[];
  label: string;
  /** The replay button's action; none for a reader who may not replay (a viewer). */
  replay?: ButtonAction;
  /** Where a property links to (the portal's property page); none in the admin console. */
  propertyHref?: (id: string) => string;
  showEndpoint?: boolean;
  showPartner?: boolean;
}) {
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm" aria-label={label}>
      {items.map((d) => {
        const retrying = d.delivery.status === "pending" && d.delivery.attempts > 0;
        return (
          <li key={d.delivery.id} className="p-3" data-testid="delivery">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <Badge value={retrying ? "retrying" : d.delivery.status} />
              <span className="font-mono text-xs font-medium">{d.eventType}</span>
              <span className="text-xs text-slate-600">
                <Time value={d.delivery.createdAt} seconds />
              </span>
              <span className="text-xs text-slate-600">
                {countOf(d.delivery.attempts, "attempt")}
                {d.delivery.status === "pending" && d.delivery.nextAttemptAt && (
                  <>
                    {" "}
                    · next <Time value={d.delivery.nextAttemptAt} seconds />
                  </>
                )}
              </span>
              {showPartner && <span className="text-xs font-medium text-slate-800">{d.partner}</span>}
              {replay && (
                <ActionButton action={replay} id={d.delivery.id} formClassName="ml-auto" pendingText="Queuing…">
                  Replay
                </ActionButton>
              )}
            </div>
            <dl className="mt-1 grid gap-x-4 gap-y-0.5 text-xs text-slate-700 sm:grid-cols-[auto_1fr]">
              <dt className="font-medium text-slate-600">webhook-id</dt>
              <dd className="break-all font-mono" data-testid="webhook-id">
                {d.delivery.messageId}
              </dd>
              {d.propertyId && (
                <>
                  <dt className="font-medium text-slate-600">property</dt>
                  <dd className="break-all font-mono" data-testid="delivery-property">
                    {propertyHref ? (
                      <Link className="link" href={propertyHref(d.propertyId)}>
                        {d.propertyReference ?? d.propertyId}
                      </Link>
                    ) : (
                      (d.propertyReference ?? d.propertyId)
                    )}
                  </dd>
                </>
              )}
              {showEndpoint && (
                <>
                  <dt className="font-medium text-slate-600">endpoint</dt>
                  <dd className="break-all font-mono">{d.url}</dd>
                </>
              )}
            </dl>
            <details className="mt-2">
              <summary className="cursor-pointer text-xs font-medium text-brand-700">
                Payload{d.attempts.length > 0 ? " and attempts" : ""}
              </summary>
              <div className="mt-2 space-y-2">
                <BodyView text={d.payload} testId="payload" />
                <p className="text-xs text-slate-600">
                  Shown indented; Copy body copies the exact bytes that were signed and sent (one line). Each attempt
                  lists the headers it was sent with.
                </p>
                {d.attempts.length > 0 && (
                  <ol className="space-y-2">
                    {d.attempts.map((a) => (
                      <li key={a.id} className="rounded-md bg-slate-50 p-2 text-xs text-slate-700">
                        <div className="flex flex-wrap gap-x-3">
                          <Time value={a.startedAt} seconds />
                          <span>{a.trigger.replace("_", " ")}</span>
                          <span
                            className={
                              a.statusCode && a.statusCode < 300
                                ? "font-medium text-emerald-800"
                                : "font-medium text-red-700"
                            }
                          >
                            {a.statusCode ? `HTTP ${a.statusCode}` : (a.errorClass ?? "error").replaceAll("_", " ")}
                          </span>
                          <span className="tabular-nums">{a.durationMs} ms</span>
                        </div>
                        <dl
                          className="mt-1 grid gap-x-3 font-mono text-[11px] sm:grid-cols-[auto_1fr]"
                          data-testid="attempt-headers"
                        >
                          <dt className="text-slate-600">webhook-id</dt>
                          <dd className="break-all">{d.delivery.messageId}</dd>
                          <dt className="text-slate-600">webhook-timestamp</dt>
                          <dd>{Math.floor(a.startedAt.getTime() / 1000)}</dd>
                          {a.signature && (
                            <>
                              <dt className="text-slate-600">webhook-signature</dt>
                              <dd className="break-all">{a.signature}</dd>
                            </>
                          )}
                        </dl>
                        {a.error && <p className="mt-1 break-words text-red-700">{a.error}</p>}
                        {a.responseBody && (
                          <pre className="mt-1 max-h-32 overflow-auto whitespace-pre-wrap break-all rounded bg-white p-1.5 font-mono text-[11px] text-slate-700 ring-1 ring-slate-200">
                            {a.responseBody}
                          </pre>
                        )}
                      </li>
                    ))}
                  </ol>
                )}
              </div>
            </details>
          </li>
        );
      })}
    </ul>
  );
}
