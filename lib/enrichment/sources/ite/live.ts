// Live ITE. First the regional rule (./rules): a building younger than its community's confirmed
// first-inspection age is `not_required`, without a request. Otherwise a registry is asked only
// where one can be queried by cadastral reference: which one, and how, is the register modules'
// (lib/registers/<id>/, passed in as `routes`). Everywhere else the answer is `unsupported`, also
// when the rule is unconfirmed or the year of construction unknown (nothing could be looked up),
// and where a register holds only report codes (Catalonia's) and the parcel has none.
import { ccaaForProvince } from "@/lib/reference-data";
import { PROVIDERS, type IteFinding, type IteSource, type LiveRegisters } from "../types";
import { liveClient, type LiveClientOptions } from "../http";
import { iteRequirement } from "./rules";
import { withProvenance } from "../provenance";

export interface LiveIteOptions extends LiveClientOptions {
  /** The date building ages are counted at (tests); default now. */
  now?: () => Date;
  /** Province → the register that answers there. */
  routes: LiveRegisters["ite"];
}

export function createLiveIte(options: LiveIteOptions): IteSource {
  const { timeoutMs, ask } = liveClient(options);
  return {
    async lookup(input) {
      const { reference, facts } = input;
      const ccaa = facts.provinceCode ? ccaaForProvince(facts.provinceCode) : null;
      const requirement = iteRequirement({ ccaa, yearBuilt: facts.yearBuilt, now: options.now?.() });
      if (requirement === "not_required")
        return {
          kind: "found",
          data: { status: "not_required" },
          provider: PROVIDERS.rules,
          summary: { ccaa, year_built: facts.yearBuilt },
        };
      const client = options.routes.get(facts.provinceCode ?? "");
      if (!client) {
        const summary = { ccaa, requirement, reason: "no_registry_by_reference" };
        return { kind: "found", data: { status: "unsupported" }, provider: PROVIDERS.rules, summary };
      }
      // The inspection is of the building: one answer serves every unit of the parcel, so what
      // depends on the unit (its requirement) is added after the shared lookup, not cached.
      const parcel = reference.slice(0, 14);
      const outcome = await ask<IteFinding>(`ite:${client.provider}:${parcel}`, input, client.provider, () =>
        client.lookup({ parcel }, timeoutMs).then((o) => withProvenance(o, client.provenance)),
      );
      if (outcome.kind === "error") return outcome;
      if (outcome.kind === "not_found" && client.holds === "codes") {
        const summary = { ...outcome.summary, requirement, reason: "no_inspection_code" };
        return { kind: "found", data: { status: "unsupported" }, provider: client.provider, summary };
      }
      return { ...outcome, summary: { ...outcome.summary, requirement } };
    },
  };
}
