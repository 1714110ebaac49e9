// Madrid city's register of building inspections (ITE), published by street address, not by
// cadastral reference: each row is filed under its address key (lib/addresses) and found through
// the property's Catastro address. Evidence is thin: the download URL, the result column
// `resultado_ite` and its values come from peer code (Qolify, ingest_ite_status.py, which says the
// address and date columns vary); the address and date column names here are CONSTRUCTED.
import { addressKey } from "@/lib/addresses";
import { isoDate } from "@/lib/enrichment/sources/registries/fields";
import type { IteFinding } from "@/lib/enrichment/sources/types";
import type { IteResult } from "@/lib/domain";
import type { Dataset, Row } from "./types";

const MADRID = "28079";
export const MADRID_ITE_REGISTRY = "Ayuntamiento de Madrid ITE";

const COLUMNS = { type: "tipo_via", name: "nombre_via", number: "numero", result: "resultado_ite", date: "fecha_ite" } as const;

/** FAVORABLE; FAVORABLE CON DEFICIENCIAS LEVES / CON PRESCRIPCIONES; DESFAVORABLE (GRAVE, MUY GRAVE). Others are no result. */
function resultOf(value: string | undefined): IteResult | null {
  const text = value?.trim().toUpperCase() ?? "";
  if (text.startsWith("DESFAVORABLE")) return "unfavourable";
  if (text === "FAVORABLE") return "favourable";
  return text.startsWith("FAVORABLE CON") ? "conditional" : null;
}

export const madridIte: Dataset = {
  id: "mad-ite",
  title: "Madrid city: building inspections (ITE), by address",
  ccaa: "Comunidad de Madrid",
  area: "Madrid city only, matched by the building's street address",
  registry: MADRID_ITE_REGISTRY,
  kinds: ["inspection"],
  url: "https://datos.madrid.es/egob/catalogo/201211-0-inspeccion-tecnica-edificios.csv",
  evidence: "URL and the result column with its values from peer code; address and date columns constructed; not checked against a downloaded file",
  required: [COLUMNS.type, COLUMNS.name, COLUMNS.number, COLUMNS.result],
  read(row: Row) {
    const key = addressKey({ municipalityCode: MADRID, type: row[COLUMNS.type] ?? "", name: row[COLUMNS.name] ?? "", number: row[COLUMNS.number] ?? "" });
    if (!key) return { skipped: "address" };
    const result = resultOf(row[COLUMNS.result]);
    if (!result) return { skipped: "result" };
    const inspectedOn = isoDate(row[COLUMNS.date]);
    const finding: IteFinding = { status: "found", inspectedOn, result, registry: MADRID_ITE_REGISTRY, reference: null };
    return { records: [{ kind: "inspection", parcel: null, unit: null, addressKey: key, datedOn: inspectedOn, data: { ...finding } }] };
  },
};
