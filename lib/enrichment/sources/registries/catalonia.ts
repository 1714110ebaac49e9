// ICAEN's open CEE dataset (Socrata `j6ii-t3w2` on analisi.transparenciacatalunya.cat): queried by
// reference for certificates, and for the IITE code that evidences a technical inspection.
import { getText, parseJson, UpstreamError } from "../http";

export const CATALONIA_BASE_URL = "https://analisi.transparenciacatalunya.cat";
export const CATALONIA_PROVINCES = new Set(["08", "17", "25", "43"]);

export interface CataloniaRow {
  referencia_cadastral?: string;
  num_cas?: string;
  data_entrada?: string;
  /** Non-renewable primary energy class: the headline letter of the label. */
  qualificaci_de_consum_d?: string;
  informe_ins_tecnica_edifici?: string;
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Newest row for the unit (20) or, failing that, any unit of the parcel (first 14 characters). */
export async function cataloniaRows(base: string, reference: string, options: { timeoutMs: number; where?: string }): Promise<{ row: CataloniaRow; scope: "unit" | "building" } | null> {
  const query = async (condition: string) => {
    const params = new URLSearchParams({ $where: options.where ? `${condition} AND ${options.where}` : condition, $order: "data_entrada DESC", $limit: "1" });
    const { text } = await getText(`${base.replace(/\/$/, "")}/resource/j6ii-t3w2.json?${params}`, { timeoutMs: options.timeoutMs, signal: new AbortController().signal });
    const rows = parseJson(text);
    if (!Array.isArray(rows)) throw new UpstreamError("malformed", "Socrata answer is not an array");
    return (rows[0] as CataloniaRow | undefined) ?? null;
  };
  if (reference.length === 20) {
    const unit = await query(`referencia_cadastral = ${quote(reference)}`);
    if (unit) return { row: unit, scope: "unit" };
  }
  const building = await query(`starts_with(referencia_cadastral, ${quote(reference.slice(0, 14))})`);
  return building ? { row: building, scope: "building" } : null;
}
