// Reading the loosely typed fields of registry records (Socrata rows, WFS feature properties, rows
// of bulk files). Each reader tells an absent value (null: empty, "-", "N/D"…) from one that is
// there but is no value of its kind (UNREADABLE: "02/28/2032", "n.d. kWh", "H"), which the register
// index counts; live lookups read both as null.
import { daysIn, madridDay, oneOf, RATINGS, withoutControl, type CertificateScope, type Rating } from "@/lib/domain";
import type { RegistryCertificate } from "../types";

export const UNREADABLE = Symbol("unreadable");
/** A field's value, null when absent, UNREADABLE when written but not of its kind. */
export type Reading<T> = T | null | typeof UNREADABLE;
/** What a value that could not be read was meant to be. */
export type ValueProblem = "letter" | "date" | "number";

/** What registers write for "nothing here". */
const ABSENT = /^(?:-+|—|N\/?[DA]|NULL|NONE|NAN)?$/i;

const trimmed = (value: unknown) =>
  typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "";

/** The readable value, or null. */
export const known = <T>(reading: Reading<T>): T | null => (reading === UNREADABLE ? null : reading);

/** An energy class A-G, also as Cantabria writes it ("E - Calificación E"). */
export function readLetter(value: unknown): Reading<Rating> {
  const s = trimmed(value).toUpperCase();
  if (ABSENT.test(s)) return null;
  const letter = /^([A-G])(?:\s+-\s.*)?$/.exec(s)?.[1];
  return oneOf(RATINGS, letter) ?? UNREADABLE;
}

/** YYYY-MM-DD when year, month and day make a date this century or the last; else null. */
function calendarDate(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2199 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** An instant written with its offset (`2021-06-01T22:00:00Z`, `…+02:00`): its day is Madrid's, not the text's. */
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A date written year first (`2019-05-10`, `2019-05-10T00:00:00.000`, Aragón's `2019-05-10 0:00`,
 * `2019/05/10`) or day first (`10/05/2019`, `10-05-2019`, `10.05.2019`, a time may follow). A
 * month-first date (`02/28/2032`) or an impossible one (`31/02/2020`) is unreadable. An instant with
 * an offset is the day it was in Spain (`2021-06-01T22:00:00Z` is 2 June there).
 */
export function readDate(value: unknown): Reading<string> {
  const s = trimmed(value);
  if (ABSENT.test(s)) return null;
  if (WITH_OFFSET.test(s)) {
    const instant = new Date(s);
    return Number.isNaN(instant.getTime()) ? UNREADABLE : madridDay(instant);
  }
  const iso = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:$|[T\s])/.exec(s);
  if (iso) return calendarDate(Number(iso[1]), Number(iso[2]), Number(iso[3])) ?? UNREADABLE;
  const dayFirst = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:$|[T\s])/.exec(s);
  if (dayFirst) return calendarDate(Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1])) ?? UNREADABLE;
  return UNREADABLE;
}

/**
 * A non-negative figure as registries write it ("214.61", "172,35", "1.234,5"; the last of "." and
 * "," is the decimal mark, unless it occurs more than once: "1.234.567" is thousands), also with its
 * unit after it (Aragón's "142,33 kWh/m2 año"). An exponent ("1e3") is no unit: unreadable.
 */
export function readFigure(value: unknown): Reading<number> {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : UNREADABLE;
  const s = trimmed(value);
  if (ABSENT.test(s)) return null;
  const digits = /^(\d[\d.,]*)(?:\s*[^\d\s.,].*)?$/.exec(s)?.[1];
  if (!digits || /^[\d.,]+e[+-]?\d/i.test(s)) return UNREADABLE;
  const last = Math.max(digits.lastIndexOf("."), digits.lastIndexOf(","));
  const repeated = last >= 0 && digits.split(digits[last]!).length > 2;
  const mark = repeated ? -1 : last;
  if (repeated && digits.includes(digits[last] === "." ? "," : ".")) return UNREADABLE;
  const n = Number(
    mark < 0 ? digits.replace(/[.,]/g, "") : digits.slice(0, mark).replace(/[.,]/g, "") + "." + digits.slice(mark + 1),
  );
  return Number.isFinite(n) ? n : UNREADABLE;
}

export const ratingLetter = (value: unknown) => known(readLetter(value));
export const isoDate = (value: unknown) => known(readDate(value));

/** A reference as registries store it, without blanks, upper case ("" when absent). */
export const bareReference = (reference: unknown) =>
  typeof reference === "string" ? reference.replace(/\s+/g, "").toUpperCase() : "";

/**
 * The unit a property is about: its own 20-character reference, or the one the cadastre resolved
 * for a one-unit parcel; null for a parcel of several units.
 */
export function propertyUnit(reference: string, resolved: string): string | null {
  const parcel = reference.slice(0, 14);
  return [reference, resolved].find((r) => r.length === 20 && r.startsWith(parcel)) ?? null;
}

/** Trimmed text without control characters (PostgreSQL's jsonb refuses a NUL), or null when empty. */
export function text(value: unknown): string | null {
  const s = withoutControl(trimmed(value)).trim();
  return s === "" ? null : s;
}

/** A registry record's values, as it writes them, under the certificate's names. */
export interface CertificateValues {
  /** Non-renewable primary energy letter: the label's headline; must be A-G. */
  rating: unknown;
  emissionsRating?: unknown;
  primaryEnergy?: unknown;
  emissions?: unknown;
  /** The day the certificate was issued. */
  issuedOn?: unknown;
  /** The day it entered the register (a registration date is no issue date: validity is not derived from it). */
  registeredOn?: unknown;
  /** The end of validity, as the register gives it. */
  validUntil?: unknown;
  certificateId?: unknown;
}

/** A registry's column (or field) for each certificate value it gives. */
export type CertificateColumns = { rating: string } & { [F in keyof CertificateValues]?: string };

/** A record's values under the certificate's names, read through `columns`. */
export function certificateValues(
  record: Readonly<Record<string, unknown>>,
  columns: CertificateColumns,
): CertificateValues {
  const value = (column: string | undefined) => (column === undefined ? undefined : record[column]);
  return {
    rating: record[columns.rating],
    emissionsRating: value(columns.emissionsRating),
    primaryEnergy: value(columns.primaryEnergy),
    emissions: value(columns.emissions),
    issuedOn: value(columns.issuedOn),
    registeredOn: value(columns.registeredOn),
    validUntil: value(columns.validUntil),
    certificateId: value(columns.certificateId),
  };
}

/**
 * One certificate from any registry's record; call only when `ratingLetter(values.rating)` is a
 * letter. A value written but unreadable is left out and told to `unreadable` (the index counts it).
 */
export function registryCertificate(
  values: CertificateValues,
  scope: CertificateScope,
  registry: string,
  unreadable: (field: keyof CertificateValues, problem: ValueProblem) => void = () => {},
): RegistryCertificate {
  const read = <T>(
    field: keyof CertificateValues,
    reader: (v: unknown) => Reading<T>,
    problem: ValueProblem,
  ): T | null => {
    const reading = reader(values[field]);
    if (reading !== UNREADABLE) return reading;
    unreadable(field, problem);
    return null;
  };
  return {
    rating: ratingLetter(values.rating)!,
    emissionsRating: read("emissionsRating", readLetter, "letter"),
    primaryEnergyKwhM2Year: read("primaryEnergy", readFigure, "number"),
    emissionsKgCo2M2Year: read("emissions", readFigure, "number"),
    issuedOn: read("issuedOn", readDate, "date"),
    registeredOn: read("registeredOn", readDate, "date"),
    validUntil: read("validUntil", readDate, "date"),
    scope,
    registry,
    certificateId: text(values.certificateId),
  };
}
