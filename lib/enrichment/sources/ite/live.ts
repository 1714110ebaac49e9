// Live ITE. First the regional rule (./rules): a building younger than its community's confirmed
// first-inspection age is `not_required`, without a request. Otherwise a registry is asked only
// where one can be queried by cadastral reference. Of the sources in the shared research
// (ite-iee.md) that is only Catalonia's CEE dataset, whose `informe_ins_tecnica_edifici` holds the
// code of the building's IITE: a code on any certificate of the parcel is `found` (evidence an
// inspection exists; the dataset does not give its result), none is `not_found`. Madrid's and
// Barcelona's ITE lists are keyed by address, the Valencian, Basque, Asturian and Galician
// registries have no open access: everywhere else the answer is `unsupported`, also when the rule
// is unconfirmed or the year of construction unknown (nothing could be looked up).
import { ccaaForProvince } from "@/lib/reference-data";
import type { IteResult, IteSource } from "../types";
import { liveClient, type LiveClientOptions } from "../http";
import { CATALONIA_BASE_URL, CATALONIA_PROVINCES, CATALONIA_REGISTRY, cataloniaIiteRow } from "../registries/catalonia";
import { isoDate } from "../registries/fields";
import { iteRequirement } from "./rules";

export interface LiveIteOptions extends LiveClientOptions {
  /** Socrata host of the Catalan CEE dataset. Default: analisi.transparenciacatalunya.cat. */
  cataloniaBaseUrl?: string;
  /** The date building ages are counted at (tests); default now. */
  now?: () => Date;
}

export function createLiveIte(options: LiveIteOptions = {}): IteSource {
  const base = options.cataloniaBaseUrl ?? CATALONIA_BASE_URL;
  const { timeoutMs, lookup } = liveClient(options);
  return {
    async lookup({ reference, facts, signal }) {
      const ccaa = facts.provinceCode ? ccaaForProvince(facts.provinceCode) : null;
      const requirement = iteRequirement({ ccaa, yearBuilt: facts.yearBuilt, now: options.now?.() });
      if (requirement === "not_required") return { kind: "found", data: { status: "not_required" }, summary: { ccaa, year_built: facts.yearBuilt } };
      if (!CATALONIA_PROVINCES.has(facts.provinceCode ?? "")) {
        return { kind: "found", data: { status: "unsupported" }, summary: { ccaa, requirement, reason: "no_registry_by_reference" } };
      }
      // The inspection is of the building: one answer serves every unit of the parcel, so what
      // depends on the unit (its requirement) is added after the shared lookup, not cached.
      const parcel = reference.slice(0, 14);
      const outcome = await lookup<IteResult>(`ite:cat:${parcel}`, signal, async () => {
        const row = await cataloniaIiteRow(base, parcel, timeoutMs);
        const code = typeof row?.informe_ins_tecnica_edifici === "string" ? row.informe_ins_tecnica_edifici.trim() : "";
        if (!code) return { kind: "not_found", summary: { registry: CATALONIA_REGISTRY } };
        const details: Record<string, unknown> = { registry: CATALONIA_REGISTRY, iite_code: code };
        if (row?.num_cas) details.certificate_id = row.num_cas;
        const seen = isoDate(row?.data_entrada);
        if (seen) details.reported_on = seen;
        return { kind: "found", data: { status: "found", details }, summary: { registry: CATALONIA_REGISTRY } };
      });
      return outcome.kind === "error" ? outcome : { ...outcome, summary: { ...outcome.summary, requirement } };
    },
  };
}
