// Reading the loosely typed fields of registry records (Socrata rows, WFS feature properties).
import type { CertificateScope, Rating } from "@/lib/domain";
import type { RegistryCertificate } from "../types";

/** An energy class letter A-G (any case, padded), else null: anything else is no usable rating. */
export function ratingLetter(value: unknown): Rating | null {
  const letter = typeof value === "string" ? value.trim().toUpperCase() : "";
  return /^[A-G]$/.test(letter) ? (letter as Rating) : null;
}

/** YYYY-MM-DD from a registry date (`2019-05-10T00:00:00.000`, `2019-05-10`, `2019/05/10`, `10/05/2019`), else null. */
export function isoDate(value: unknown): string | null {
  const s = typeof value === "string" ? value.trim() : "";
  const iso = /^(\d{4})[-/](\d{2})[-/](\d{2})/.exec(s);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(s);
  return dmy ? `${dmy[3]}-${dmy[2]!.padStart(2, "0")}-${dmy[1]!.padStart(2, "0")}` : null;
}

/** A reference as registries store it, without blanks, upper case ("" when absent). */
export const bareReference = (reference: unknown) => (typeof reference === "string" ? reference.replace(/\s+/g, "").toUpperCase() : "");

/**
 * A decimal number as registries write it ("214.61", "172,35", "1.234,5"): the last of "." and ","
 * is the decimal mark, the other a thousands separator. Null for anything else, and for negatives.
 */
export function decimal(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : null;
  const s = typeof value === "string" ? value.trim() : "";
  if (!/^\d[\d.,]*$/.test(s)) return null;
  const mark = Math.max(s.lastIndexOf("."), s.lastIndexOf(","));
  const normalised = mark < 0 ? s : s.slice(0, mark).replace(/[.,]/g, "") + "." + s.slice(mark + 1);
  const n = Number(normalised);
  return Number.isFinite(n) ? n : null;
}

/**
 * The unit a property is about: its own 20-character reference, or the one the cadastre resolved
 * for a one-unit parcel; null for a parcel of several units.
 */
export function propertyUnit(reference: string, resolved: string): string | null {
  const parcel = reference.slice(0, 14);
  return [reference, resolved].find((r) => r.length === 20 && r.startsWith(parcel)) ?? null;
}

/** Trimmed text, or null when empty. */
export const text = (value: unknown) => (value === undefined || value === null || String(value).trim() === "" ? null : String(value).trim());

/** A figure, also written with its unit after it ("123.4 kWh/m2 año" → 123.4). */
export const figure = (value: unknown) => decimal(typeof value === "string" ? value.trim().split(/\s+/)[0] : value);

/** A registry record's values, as it writes them, under the certificate's names. */
export interface CertificateValues {
  /** Non-renewable primary energy letter: the label's headline; must be A-G. */
  rating: unknown;
  emissionsRating?: unknown;
  primaryEnergy?: unknown;
  emissions?: unknown;
  issuedOn?: unknown;
  validUntil?: unknown;
  certificateId?: unknown;
}

/** One certificate from any registry's record; call only when `ratingLetter(values.rating)` is a letter. */
export function registryCertificate(values: CertificateValues, scope: CertificateScope, registry: string): RegistryCertificate {
  return {
    rating: ratingLetter(values.rating)!,
    emissionsRating: ratingLetter(values.emissionsRating),
    primaryEnergyKwhM2Year: figure(values.primaryEnergy),
    emissionsKgCo2M2Year: figure(values.emissions),
    issuedOn: isoDate(values.issuedOn),
    validUntil: isoDate(values.validUntil),
    scope,
    registry,
    certificateId: text(values.certificateId),
  };
}
