import Link from "next/link";
import { requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { EVENT_TYPES, oneOf } from "@/lib/domain";
import { listEndpoints } from "@/lib/webhooks/endpoints";
import { deliveries, DELIVERY_FILTERS } from "@/lib/portal/queries";
import { daySpan, idParam, isoDay, oneParam, queryOf, searchText, type RawParam } from "@/lib/portal/params";
import { DeliveryList } from "../../../_components/delivery-list";
import { Pager } from "../../../_components/data-table";
import { DayRange, FilterActions, FilterForm, SearchFilter, SelectFilter } from "../../../_components/filters";
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
  const status = oneOf(DELIVERY_FILTERS, oneParam(s.status));
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
    from: daySpan(from, to).start,
    to: daySpan(from, to).end,
    before,
    limit: 25,
  });
  const query = queryOf({ q, endpoint, status, type, from, to });
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
      <FilterForm
        label="Filter deliveries"
        query={query.toString()}
        className="sm:grid-cols-2 lg:grid-cols-3 lg:items-end"
      >
        <SearchFilter
          label="webhook-id or property id"
          value={q}
          placeholder="msg_… or a property's UUID"
          className="sm:col-span-2 lg:col-span-3"
          mono
        />
        <SelectFilter
          name="endpoint"
          label="Endpoint"
          value={endpoint}
          any="Any endpoint"
          options={endpoints.map((e) => [e.id, e.url])}
        />
        <SelectFilter
          name="status"
          label="Status"
          value={status}
          any="Any status"
          options={DELIVERY_FILTERS.map((st) => [st, st])}
        />
        <SelectFilter name="type" label="Event type" value={type} any="Any event" options={TYPES.map((t) => [t, t])} />
        <DayRange from={from} to={to} className="sm:col-span-2 lg:col-span-2" />
        <FilterActions filtered={filtered} clearHref="/webhooks/deliveries" />
      </FilterForm>
      {page.data.length ? (
        <>
          <DeliveryList
            items={page.data}
            label="Webhook deliveries"
            replay={can(user.role, "webhooks", mode) ? replayDeliveryAction : undefined}
            propertyHref={(id) => `/properties/${id}`}
            showEndpoint
          />
          <Pager
            first={before && `/webhooks/deliveries?${query}`}
            next={page.next && `/webhooks/deliveries?${new URLSearchParams([...query, ["before", page.next]])}`}
            labels={["Newest", "Older"]}
          />
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
