// The certificate datasets differ only in their column names and dates: one reader for all of them.
import type { RegistryCertificate } from "@/lib/enrichment/sources/types";
import { decimal, isoDate, ratingLetter } from "@/lib/enrichment/sources/registries/fields";
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

const text = (value: string | undefined) => (value?.trim() ? value.trim() : null);
/** "E", and Cantabria's "E - Calificación E" → E */
const letter = (value: string | undefined) => ratingLetter(value?.trim().split(/\s+-\s+/)[0]);
/** "123,4", "123.4 kWh/m2 año" → 123.4 */
const number = (value: string | undefined) => decimal(value?.trim().split(/\s+/)[0]);

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
        for (const key of keys) {
          const certificate: RegistryCertificate = {
            rating,
            emissionsRating: columns.emissionsRating ? letter(row[columns.emissionsRating]) : null,
            primaryEnergyKwhM2Year: columns.primaryEnergy ? number(row[columns.primaryEnergy]) : null,
            emissionsKgCo2M2Year: columns.emissions ? number(row[columns.emissions]) : null,
            issuedOn,
            validUntil,
            scope: key.unit ? "unit" : "building",
            registry: meta.registry,
            certificateId: columns.certificateId ? text(row[columns.certificateId]) : null,
          };
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
