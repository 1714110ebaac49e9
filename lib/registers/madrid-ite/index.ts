// Madrid city's register of building inspections (ITE), published by street address, not by
// cadastral reference: each row is filed under its address key (lib/addresses) and found through
// the property's Catastro address. Evidence is thin. The one peer that reads the file (Qolify,
// ingest_ite_status.py) gives the URL, the result column `resultado_ite` and its values, and reads
// headers without regard to case; for the address it tries one column, DIRECCION, else
// DOMICILIO_INMUEBLE, else DOMICILIO, and for dates FECHA_ITE or FECHA_INSPECCION, and
// FECHA_VENCIMIENTO for the next one due. Both layouts are accepted: that single address column, or
// street type, name and number apart (`tipo_via`, `nombre_via`, `numero`, `fecha_ite`: CONSTRUCTED).
import { addressKey, splitStreetAddress } from "@/lib/addresses";
import { readDate, UNREADABLE } from "@/lib/enrichment/sources/registries/fields";
import type { IteFinding } from "@/lib/enrichment/sources/types";
import type { IteResult } from "@/lib/domain";
import type { Dataset, Row } from "../datasets";
import type { Register } from "../register";

const MADRID = "28079";
export const MADRID_ITE_REGISTRY = "Ayuntamiento de Madrid ITE";

/** FAVORABLE; FAVORABLE CON DEFICIENCIAS LEVES / CON PRESCRIPCIONES; DESFAVORABLE (GRAVE, MUY GRAVE). Others are no result. */
function resultOf(value: string | undefined): IteResult | null {
  const text = value?.trim().toUpperCase() ?? "";
  if (text.startsWith("DESFAVORABLE")) return "unfavourable";
  if (text === "FAVORABLE") return "favourable";
  return text.startsWith("FAVORABLE CON") ? "conditional" : null;
}

/** The building's key from the single address column, or from type, name and number apart. */
function keyOf(row: Row): string | null {
  const street =
    row.address !== undefined
      ? splitStreetAddress(row.address)
      : { type: row.type ?? "", name: row.name ?? "", number: row.number ?? "" };
  return street && addressKey({ municipalityCode: MADRID, ...street });
}

const dataset: Dataset = {
  id: "mad-ite",
  title: "Madrid city: building inspections (ITE), by address",
  area: "Madrid city only, matched by the building's street address",
  registry: MADRID_ITE_REGISTRY,
  kinds: ["inspection"],
  url: "https://datos.madrid.es/egob/catalogo/201211-0-inspeccion-tecnica-edificios.csv",
  download: "one CSV; its delimiter and encoding are detected",
  evidence: {
    level: "unconfirmed",
    citations: [
      "Qolify, ingest_ite_status.py (peer code, CHI-325): the URL, `resultado_ite` and its values; " +
        "the address and date columns are names it tries, not names it saw",
      "`tipo_via`, `nombre_via`, `numero`, `fecha_ite`: constructed",
    ],
  },
  columns: {
    address: ["DIRECCION", "DOMICILIO_INMUEBLE", "DOMICILIO"],
    type: ["tipo_via"],
    name: ["nombre_via"],
    number: ["numero"],
    result: ["resultado_ite", "RESULTADO"],
    inspectedOn: ["fecha_ite", "FECHA_INSPECCION"],
    nextDueOn: ["FECHA_VENCIMIENTO"],
  },
  layouts: [
    ["address", "result"],
    ["type", "name", "number", "result"],
  ],
  caseInsensitive: true,
  read(row, unreadable) {
    const key = keyOf(row);
    if (!key) return { skipped: "address", field: row.address !== undefined ? "address" : "number" };
    const result = resultOf(row.result);
    if (!result) return { skipped: "result", field: "result" };
    const date = (field: "inspectedOn" | "nextDueOn") => {
      const reading = readDate(row[field]);
      if (reading !== UNREADABLE) return reading;
      unreadable(field, "date");
      return null;
    };
    const inspectedOn = date("inspectedOn");
    const finding: IteFinding = {
      status: "found",
      inspectedOn,
      result,
      nextDueOn: date("nextDueOn"),
      registry: MADRID_ITE_REGISTRY,
      reference: null,
    };
    return {
      records: [
        { kind: "inspection", parcel: null, unit: null, addressKey: key, datedOn: inspectedOn, data: { ...finding } },
      ],
    };
  },
};

export const madridIte: Register = {
  id: "madrid-ite",
  publisher: "Ayuntamiento de Madrid",
  community: "Comunidad de Madrid",
  licence: {
    name: "datos.madrid.es terms of use",
    attribution: "Ayuntamiento de Madrid",
    source:
      "datos.madrid.es terms of use: reuse citing the Ayuntamiento de Madrid as source (recalled, not re-checked)",
  },
  settings: {},
  live: [],
  datasets: [dataset],
};
