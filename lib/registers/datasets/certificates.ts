// The certificate datasets differ only in their column names and dates: one reader for all of them.
import { isoDate, ratingLetter, registryCertificate, text } from "@/lib/enrichment/sources/registries/fields";
import { indexKeys } from "../references";
import type { Dataset, RecordDraft, Row } from "./types";

export interface CertificateColumns {
  reference: string;
  /** Letter of non-renewable primary energy consumption: the label's headline rating. */
  rating: string;
  emissionsRating?: string;
  /** kWh/m²·year and kgCO2/m²·year; a unit written after the number is ignored. */
  primaryEnergy?: string;
  emissions?: string;
  issuedOn?: string;
  validUntil?: string;
  certificateId?: string;
  /** Code of the building's technical inspection report (Catalonia's IITE): evidence an inspection exists. */
  inspectionCode?: string;
}

type Meta = Omit<Dataset, "kinds" | "required" | "read">;

/** "E", and Cantabria's "E - Calificación E" → E */
const letter = (value: string | undefined) => ratingLetter(value?.trim().split(/\s+-\s+/)[0]);

export function certificateDataset(meta: Meta, columns: CertificateColumns): Dataset {
  return {
    ...meta,
    kinds: columns.inspectionCode ? ["certificate", "inspection"] : ["certificate"],
    required: [columns.reference, columns.rating],
    read(row: Row) {
      const keys = indexKeys(row[columns.reference]);
      if (!keys.length) return { skipped: "reference" };
      const rating = letter(row[columns.rating]);
      const code = columns.inspectionCode ? text(row[columns.inspectionCode]) : null;
      if (!rating && !code) return { skipped: "rating" };
      const issuedOn = columns.issuedOn ? isoDate(row[columns.issuedOn]) : null;
      const validUntil = columns.validUntil ? isoDate(row[columns.validUntil]) : null;
      const records: RecordDraft[] = [];
      if (rating) {
        const value = (column?: string) => (column ? row[column] : undefined);
        const values = { rating, emissionsRating: letter(value(columns.emissionsRating)), primaryEnergy: value(columns.primaryEnergy), emissions: value(columns.emissions), issuedOn, validUntil, certificateId: value(columns.certificateId) };
        for (const key of keys) {
          const certificate = registryCertificate(values, key.unit ? "unit" : "building", meta.registry);
          records.push({ kind: "certificate", parcel: key.parcel, unit: key.unit, datedOn: issuedOn ?? validUntil, data: { ...certificate } });
        }
      }
      if (code) {
        // The inspection is of the building, whichever unit's certificate names it; its own date
        // and result are not in the dataset (the row's date is the certificate's).
        for (const parcel of new Set(keys.map((k) => k.parcel))) {
          records.push({ kind: "inspection", parcel, unit: null, datedOn: issuedOn, data: { status: "found", registry: meta.registry, reference: code } });
        }
      }
      return { records };
    },
  };
}
