// Query parameters of portal pages, read defensively: a page's URL is anyone's to craft (repeated
// keys arrive as arrays, dates as "2024-13-45", NULs inside a search), and none of that may reach
// the database as anything but a valid value or nothing.
import { hasControl, isUuid, oneOf, PROPERTY_STATUSES, withoutControl } from "@/lib/domain";
import { STATUS_CLASSES } from "@/lib/request-logs";

export type RawParam = string | string[] | undefined;

/** The first value of a parameter given once or several times. */
export const oneParam = (value: RawParam): string | undefined => (Array.isArray(value) ? value[0] : value);

/** Free text to search for: trimmed, bounded, without control characters; undefined when empty. */
export function searchText(value: RawParam, max: number): string | undefined {
  const raw = oneParam(value);
  const text = raw === undefined ? undefined : withoutControl(raw).trim().slice(0, max);
  return text || undefined;
}

/**
 * A calendar day YYYY-MM-DD that exists (no 2024-13-45, no 2023-02-29), else undefined; years
 * 1000 to 9998 only, so the day after it (a range's end) is a date PostgreSQL and JavaScript both
 * write as YYYY-MM-DD (year 0000 is none, and 9999-12-31's next day is +010000).
 */
export function isoDay(value: RawParam): string | undefined {
  const day = oneParam(value);
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const year = Number(day.slice(0, 4));
  if (year < 1000 || year > 9998) return undefined;
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().startsWith(day) ? day : undefined;
}

/** An id (a cursor, say): only a UUID names anything. */
export function idParam(value: RawParam): string | undefined {
  const id = oneParam(value);
  return id && !hasControl(id) && isUuid(id) ? id : undefined;
}

/** The instants a from–to pair of whole UTC days spans: `to` includes its day (`end` is the next day's start). */
export const daySpan = (from?: string, to?: string): { start?: Date; end?: Date } => ({
  start: from ? new Date(`${from}T00:00:00Z`) : undefined,
  end: to ? new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000) : undefined,
});

/** A list's query string: the filters that are set, in the order given. */
export const queryOf = (filters: Record<string, string | number | undefined>): URLSearchParams =>
  new URLSearchParams(
    Object.entries(filters).flatMap(([name, value]) =>
      value === undefined || value === "" ? [] : [[name, String(value)]],
    ),
  );

/** A console look-up's parameters: the text looked for (at most `max` characters) and the partner it is narrowed to. */
export type LookupParams = { q?: RawParam; partner?: RawParam };
export const lookupOf = (params: LookupParams, max: number) => ({
  q: searchText(params.q, max),
  partner: idParam(params.partner),
});

/** The Properties list's filters (its page and its CSV export read the same ones). */
export function propertyFilters(s: Record<"q" | "status" | "from" | "to", RawParam>) {
  const status = oneOf(PROPERTY_STATUSES, oneParam(s.status));
  const from = isoDay(s.from);
  const to = isoDay(s.to);
  const q = searchText(s.q, 100);
  const { start, end } = daySpan(from, to);
  return { q, status, from, to, list: { search: q, status, createdFrom: start, createdTo: end } };
}

/** `2xx`-style classes or an exact status; anything else is no filter. */
function statusFilter(value: RawParam) {
  const raw = oneParam(value);
  return oneOf(STATUS_CLASSES, raw) ?? (raw && /^[1-5]\d\d$/.test(raw) ? Number(raw) : undefined);
}

/** The Logs list's filters (its page and its CSV export read the same ones). */
export function logFilters(s: Record<"q" | "status" | "path" | "from" | "to", RawParam>) {
  const q = searchText(s.q, 64);
  const status = statusFilter(s.status);
  const path = searchText(s.path, 200);
  const from = isoDay(s.from);
  const to = isoDay(s.to);
  return {
    q,
    status,
    path,
    from,
    to,
    // Dates are whole UTC days: "to" includes that day.
    search: {
      requestId: q,
      status,
      path,
      from: from ? new Date(`${from}T00:00:00Z`) : undefined,
      to: to ? new Date(Date.parse(`${to}T00:00:00Z`) + 86_399_999) : undefined,
    },
  };
}
