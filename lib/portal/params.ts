// Query parameters of portal pages, read defensively: a page's URL is anyone's to craft (repeated
// keys arrive as arrays, dates as "2024-13-45", NULs inside a search), and none of that may reach
// the database as anything but a valid value or nothing.
import { hasControl, isUuid, withoutControl } from "@/lib/domain";

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
