// The certificate datasets differ only in their column names and dates: one reader for all of them.
import {
  readDate,
  readLetter,
  registryCertificate,
  text,
  UNREADABLE,
  type CertificateValues,
} from "@/lib/enrichment/sources/registries/fields";
import { indexKeys } from "../references";
import type { Dataset, RecordDraft, Row } from "./types";

/** A certificate dataset's fields: each the header name a file gives it, or several it may give. */
export type CertificateColumns = { reference: string | readonly string[]; rating: string | readonly string[] } & {
  [F in Exclude<keyof CertificateValues, "rating">]?: string | readonly string[];
} & {
  /** Code of the building's technical inspection report (Catalonia's IITE): evidence an inspection exists. */
  inspectionCode?: string | readonly string[];
};

type Meta = Omit<Dataset, "kinds" | "columns" | "layouts" | "read">;

export function certificateDataset(meta: Meta, columns: CertificateColumns): Dataset {
  const hasCode = columns.inspectionCode !== undefined;
  return {
    ...meta,
    kinds: hasCode ? ["certificate", "inspection"] : ["certificate"],
    ...(hasCode ? { inspections: "codes" as const } : {}),
    columns: Object.fromEntries(
      Object.entries(columns).map(([field, names]) => [field, typeof names === "string" ? [names] : names]),
    ),
    layouts: [["reference", "rating"]],
    read(row: Row, unreadable) {
      const keys = indexKeys(row.reference);
      if (!keys.length) return { skipped: "reference", field: "reference" };
      const reading = readLetter(row.rating);
      const letter = reading === UNREADABLE ? null : reading;
      const code = hasCode ? text(row.inspectionCode) : null;
      if (!letter && !code) return { skipped: "rating", field: "rating" };
      // A row kept for its inspection code whose letter cannot be read: the letter alone is left out.
      if (reading === UNREADABLE) unreadable("rating", "letter");
      const records: RecordDraft[] = [];
      const certificate = letter
        ? registryCertificate({ ...row, rating: letter }, "unit", meta.registry, unreadable)
        : null;
      if (certificate) {
        for (const key of keys) {
          const data = { ...certificate, scope: key.unit ? "unit" : "building" };
          records.push({
            kind: "certificate",
            parcel: key.parcel,
            unit: key.unit,
            datedOn: data.issuedOn ?? data.registeredOn ?? data.validUntil,
            data,
          });
        }
      }
      if (code) {
        // The inspection is of the building, whichever unit's certificate names it; its own date
        // and result are not in the dataset (the row's date is the certificate's).
        const field = row.issuedOn !== undefined ? "issuedOn" : "registeredOn";
        let datedOn = certificate ? (certificate.issuedOn ?? certificate.registeredOn ?? null) : null;
        if (!certificate) {
          const date = readDate(row[field]);
          if (date === UNREADABLE) unreadable(field, "date");
          else datedOn = date;
        }
        for (const parcel of new Set(keys.map((k) => k.parcel))) {
          records.push({
            kind: "inspection",
            parcel,
            unit: null,
            datedOn,
            data: { status: "found", registry: meta.registry, reference: code },
          });
        }
      }
      return { records };
    },
  };
}
