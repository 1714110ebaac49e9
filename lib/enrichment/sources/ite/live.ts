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
import { PROVIDERS, type IteFinding, type IteSource } from "../types";
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
      if (requirement === "not_required") return { kind: "found", data: { status: "not_required" }, provider: PROVIDERS.rules, summary: { ccaa, year_built: facts.yearBuilt } };
      if (!CATALONIA_PROVINCES.has(facts.provinceCode ?? "")) {
        return { kind: "found", data: { status: "unsupported" }, provider: PROVIDERS.rules, summary: { ccaa, requirement, reason: "no_registry_by_reference" } };
      }
      // The inspection is of the building: one answer serves every unit of the parcel, so what
      // depends on the unit (its requirement) is added after the shared lookup, not cached.
      const parcel = reference.slice(0, 14);
      const outcome = await lookup<IteFinding>(`ite:cat:${parcel}`, signal, async () => {
        const row = await cataloniaIiteRow(base, parcel, timeoutMs);
        const code = typeof row?.informe_ins_tecnica_edifici === "string" ? row.informe_ins_tecnica_edifici.trim() : "";
        if (!code) return { kind: "not_found", provider: PROVIDERS.catalonia, summary: { registry: CATALONIA_REGISTRY } };
        // The IITE code evidences an inspection; the dataset gives neither its date nor its result
        // (the row's date is the energy certificate's, kept for operators in the summary).
        return {
          kind: "found",
          data: { status: "found", registry: CATALONIA_REGISTRY, reference: code },
          provider: PROVIDERS.catalonia,
          summary: { registry: CATALONIA_REGISTRY, certificate_id: row?.num_cas ?? null, reported_on: isoDate(row?.data_entrada) },
        };
      });
      return outcome.kind === "error" ? outcome : { ...outcome, summary: { ...outcome.summary, requirement } };
    },
  };
}
