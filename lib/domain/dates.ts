// Calendar dates (YYYY-MM-DD) and the validity of an energy certificate. Only real calendar dates
// come out of here: 29 February plus a number of years is 28 February unless that year is leap.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days in a month (1-12) of a year. */
export const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Whether `value` is YYYY-MM-DD naming a day that exists (no 2030-02-29, no 2020-04-31). */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

/** `date` + `years` calendar years; a day the target month lacks (29 February) becomes its last day. */
export function addYears(date: string, years: number): string {
  if (!isCalendarDate(date)) throw new RangeError(`not a calendar date: ${date}`);
  // Three numbers: the date was checked above.
  const [year = 0, month = 1, day = 1] = date.split("-").map(Number);
  const target = year + years;
  return `${pad(target, 4)}-${pad(month)}-${pad(Math.min(day, daysIn(target, month)))}`;
}

const MADRID_DAY = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Madrid",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** `now`'s date in Spain (Europe/Madrid), YYYY-MM-DD: the day registers and partners reckon by. */
export function madridDay(now: Date): string {
  // Madrid's day changes only on a whole UTC hour (midnight there is 22:00 or 23:00 UTC, and its
  // clocks change at 01:00 UTC): the day is the same for every instant of a UTC hour, so each hour's
  // is formatted once (Intl's format was the largest self time of the project's own code in a create).
  const hour = Math.floor(now.getTime() / 3_600_000);
  if (hour !== lastHour) {
    lastDay = MADRID_DAY.format(now);
    lastHour = hour;
  }
  return lastDay;
}
let lastHour = Number.NaN;
let lastDay = "";

/** RD 390/2021 came into force on this day; from it a certificate rated G is valid for 5 years. */
export const RD_390_2021_IN_FORCE = "2021-06-02";
/** Validity of a certificate (RD 235/2013 art. 13, RD 390/2021 art. 13): 10 years, 5 for a G since the latter. */
export const CERTIFICATE_YEARS = 10;
export const G_CERTIFICATE_YEARS = 5;

export type ValidUntilSource = "registry" | "derived" | "unknown";

export interface CertificateDates {
  rating: string;
  /** The day the certificate was issued, when the register gives it. */
  issuedOn: string | null;
  /** The end of validity, when the register gives it. */
  validUntil: string | null;
}

/**
 * The end of a certificate's validity and where it comes from: the register's own, else derived
 * from the issue date (10 years; 5 for a G issued since RD 390/2021), else unknown. A registration
 * date never stands in for the issue date: a certificate may be registered long after it was issued.
 */
export function certificateValidity(c: CertificateDates): {
  validUntil: string | null;
  source: ValidUntilSource;
} {
  if (c.validUntil) return { validUntil: c.validUntil, source: "registry" };
  if (!c.issuedOn) return { validUntil: null, source: "unknown" };
  const years = c.rating === "G" && c.issuedOn >= RD_390_2021_IN_FORCE ? G_CERTIFICATE_YEARS : CERTIFICATE_YEARS;
  return { validUntil: addYears(c.issuedOn, years), source: "derived" };
}

/** Whether a certificate valid until `validUntil` has expired on `now`'s date in Spain; null when unknown. */
export const certificateExpired = (validUntil: string | null, now: Date): boolean | null =>
  validUntil === null ? null : validUntil < madridDay(now);
