import Link from "next/link";
import { requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { EVENT_TYPES } from "@/lib/domain";
import { listEndpoints } from "@/lib/webhooks/endpoints";
import { deliveries, DELIVERY_FILTERS, type DeliveryFilter } from "@/lib/portal/queries";
import { idParam, isoDay, oneParam, searchText, type RawParam } from "@/lib/portal/params";
import { DeliveryList } from "../../../_components/delivery-list";
import { DayRange, FilterActions } from "../../../_components/filters";
import { EmptyState, PageHeader } from "../../../_components/ui";
import { replayDeliveryAction } from "../actions";
import { AutoRefresh } from "../../../_components/auto-refresh";

export const metadata = { title: "Webhook deliveries" };

const TYPES: readonly string[] = [...EVENT_TYPES, "webhook.test"];
type Search = Record<"q" | "endpoint" | "status" | "type" | "from" | "to" | "before", RawParam>;

export default async function Deliveries({ searchParams }: { searchParams: Promise<Search> }) {
  const { app, scope, mode, user } = await requirePartner("endpoints");
  const s = await searchParams;
  const endpoints = await listEndpoints(app.db, scope);
  const endpoint = endpoints.find((e) => e.id === idParam(s.endpoint))?.id;
  const status = (DELIVERY_FILTERS as readonly string[]).includes(oneParam(s.status) ?? "")
    ? (oneParam(s.status) as DeliveryFilter)
    : undefined;
  const type = TYPES.includes(oneParam(s.type) ?? "") ? oneParam(s.type) : undefined;
  const q = searchText(s.q, 100);
  const from = isoDay(s.from);
  const to = isoDay(s.to);
  const before = idParam(s.before);
  const page = await deliveries(app.db, {
    scope,
    endpointId: endpoint,
    status,
    eventType: type,
    q,
    // Dates are whole UTC days: "to" includes that day.
    from: from ? new Date(`${from}T00:00:00Z`) : undefined,
    to: to ? new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000) : undefined,
    before,
    limit: 25,
  });
  const query = new URLSearchParams({
    ...(q ? { q } : {}),
    ...(endpoint ? { endpoint } : {}),
    ...(status ? { status } : {}),
    ...(type ? { type } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  });
  const filtered = query.size > 0;
  return (
    <>
      <PageHeader
        title="Webhook deliveries"
        description={
          <>
            Every {mode}-mode delivery, newest first. Search by the <code className="code-inline">webhook-id</code>{" "}
            header your receiver logged, or by a property id.{" "}
            <Link className="link" href="/webhooks">
              Endpoints
            </Link>
          </>
        }
        actions={<AutoRefresh active={false} watching={!before} />}
      />
      <form
        key={query.toString()}
        className="mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-3 lg:items-end"
        role="search"
        aria-label="Filter deliveries"
      >
        <div className="sm:col-span-2 lg:col-span-3">
          <label htmlFor="q" className="label">
            webhook-id or property id
          </label>
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={q}
            className="input font-mono"
            placeholder="msg_… or a property's UUID"
          />
        </div>
        <div>
          <label htmlFor="endpoint" className="label">
            Endpoint
          </label>
          <select id="endpoint" name="endpoint" defaultValue={endpoint ?? ""} className="input">
            <option value="">Any endpoint</option>
            {endpoints.map((e) => (
              <option key={e.id} value={e.id}>
                {e.url}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="status" className="label">
            Status
          </label>
          <select id="status" name="status" defaultValue={status ?? ""} className="input">
            <option value="">Any status</option>
            {DELIVERY_FILTERS.map((st) => (
              <option key={st} value={st}>
                {st}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="type" className="label">
            Event type
          </label>
          <select id="type" name="type" defaultValue={type ?? ""} className="input">
            <option value="">Any event</option>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <DayRange from={from} to={to} className="sm:col-span-2 lg:col-span-2" />
        <FilterActions filtered={filtered} clearHref="/webhooks/deliveries" />
      </form>
      {page.data.length ? (
        <>
          <DeliveryList
            items={page.data}
            label="Webhook deliveries"
            replay={can(user.role, "webhooks", mode) ? replayDeliveryAction : undefined}
            propertyHref={(id) => `/properties/${id}`}
            showEndpoint
          />
          <nav aria-label="Pages" className="mt-4 flex gap-2">
            {before && (
              <Link className="btn-secondary" href={`/webhooks/deliveries?${query}`}>
                Newest
              </Link>
            )}
            {page.next && (
              <Link
                className="btn-secondary"
                href={`/webhooks/deliveries?${new URLSearchParams([...query, ["before", page.next]])}`}
              >
                Older
              </Link>
            )}
          </nav>
        </>
      ) : (
        <EmptyState title={filtered ? "No deliveries match" : "No deliveries yet"}>
          {filtered
            ? "A webhook-id starts msg_; deliveries of deleted endpoints are not shown."
            : "Send a test event from an endpoint to see one here."}
        </EmptyState>
      )}
    </>
  );
}
