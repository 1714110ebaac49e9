import Link from "next/link";
import type { EndpointRow } from "@/lib/webhooks/endpoints";
import type { endpointStats } from "@/lib/portal/queries";
import { ActionButton } from "../../_components/action-button";
import { DeliveryList, type DeliveryItem } from "../../_components/delivery-list";
import { Badge, Card, Percent, Time } from "../../_components/ui";
import {
  deleteEndpointAction,
  replayDeliveryAction,
  replayFailedAction,
  sendTestEventAction,
  toggleEndpointAction,
} from "./actions";
import { EditEndpointForm, RevealSecret, RotateSecretForm } from "./forms";

type Stats = Awaited<ReturnType<typeof endpointStats>>;

/** One endpoint: its health, secret and rotation, actions and recent deliveries (list and own page). */
export function EndpointPanel({
  endpoint: e,
  stats,
  recent,
  titleLink,
  edit,
  changes,
}: {
  endpoint: EndpointRow;
  stats: Stats;
  recent: DeliveryItem[];
  titleLink: boolean;
  /** On the endpoint's own page: its URL and description editable in place. */
  edit?: { mode: "test" | "live"; allowPrivate: boolean };
  /** Whether the reader may change it, see its secret and replay (not a viewer): else no such controls. */
  changes: boolean;
}) {
  const countOf = (status: string) => stats.find((s) => s.endpointId === e.id && s.status === status)?.n ?? 0;
  const [ok, failed, retrying] = [countOf("succeeded"), countOf("failed"), countOf("retrying")];
  const now = new Date();
  const overlapEndsAt =
    e.previousSecret && e.previousSecretExpiresAt && e.previousSecretExpiresAt > now
      ? e.previousSecretExpiresAt.toISOString()
      : null;
  return (
    <Card
      title={
        <span className="flex flex-wrap items-center gap-2">
          {titleLink ? (
            <Link className="link break-all font-mono text-sm" href={`/webhooks/${e.id}`}>
              {e.url}
            </Link>
          ) : (
            <span className="break-all font-mono text-sm">{e.url}</span>
          )}
          {e.enabled ? (
            <Badge value={e.failingSince ? "failing" : "enabled"} />
          ) : (
            <Badge
              value="disabled"
              label={`disabled${e.disabledReason ? `: ${e.disabledReason.replaceAll("_", " ")}` : ""}`}
            />
          )}
        </span>
      }
    >
      <div className="mb-4 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600">
        {e.description && <span className="text-slate-800">{e.description}</span>}
        <span>
          added <Time value={e.createdAt} />
        </span>
        <span>
          events: <span className="font-mono text-slate-800">{e.eventTypes ? e.eventTypes.join(", ") : "all"}</span>
        </span>
        <span data-testid="endpoint-stats">
          last 7 days:{" "}
          <span className="font-medium text-slate-900">
            <Percent value={ok + failed + retrying ? ok / (ok + failed + retrying) : null} />
          </span>{" "}
          delivered ({ok} ok, {failed + retrying} failing: {failed} failed, {retrying} retrying)
        </span>
        {e.failingSince && (
          <span className="text-amber-800">
            failing since <Time value={e.failingSince} />
          </span>
        )}
      </div>
      {edit && changes && (
        <div className="mb-4">
          <EditEndpointForm
            endpointId={e.id}
            url={e.url}
            description={e.description}
            mode={edit.mode}
            allowPrivate={edit.allowPrivate}
          />
        </div>
      )}
      {changes && (
        <div className="mb-4 space-y-3">
          <RevealSecret endpointId={e.id} />
          <RotateSecretForm endpointId={e.id} overlapEndsAt={overlapEndsAt} />
        </div>
      )}
      {changes && (
        <div className="mb-5 flex flex-wrap gap-2">
          <ActionButton action={sendTestEventAction} id={e.id} className="btn-secondary" pendingText="Sending…">
            Send test event
          </ActionButton>
          {failed + retrying > 0 && (
            <ActionButton action={replayFailedAction} id={e.id} className="btn-secondary" pendingText="Queuing…">
              Replay all failed
            </ActionButton>
          )}
          <ActionButton
            action={toggleEndpointAction}
            id={e.id}
            className="btn-secondary"
            pendingText="Saving…"
            confirm={
              e.enabled
                ? "Disable this endpoint? New events will not be sent to it until you enable it again."
                : undefined
            }
          >
            {e.enabled ? "Disable" : "Enable"}
          </ActionButton>
          <ActionButton
            action={deleteEndpointAction}
            id={e.id}
            className="btn-danger"
            pendingText="Deleting…"
            confirm="Delete this endpoint? Pending deliveries to it stop and its history is no longer shown."
          >
            Delete
          </ActionButton>
        </div>
      )}
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">Recent deliveries</h3>
        <Link className="link text-sm" href={`/webhooks/deliveries?endpoint=${e.id}`}>
          Search all deliveries
        </Link>
      </div>
      {recent.length ? (
        <DeliveryList
          items={recent}
          label={`Deliveries to ${e.url}`}
          replay={changes ? replayDeliveryAction : undefined}
          propertyHref={(id) => `/properties/${id}`}
        />
      ) : (
        <p className="text-sm text-slate-600">
          No deliveries yet. Send a test event to check that your endpoint answers 2xx and verifies the signature.
        </p>
      )}
    </Card>
  );
}
