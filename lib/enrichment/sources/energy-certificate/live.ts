// Live certificate lookup in the regional registries that can be queried by reference. Which
// register answers in each province, and how, is the register modules' (lib/registers/<id>/,
// passed in as `routes`); elsewhere the answer is `not_found` at once, without a request, so the
// pipeline estimates the rating.
import { PROVIDERS, type EnergyCertificateSource, type LiveRegisters } from "../types";
import { liveClient, type LiveClientOptions } from "../http";
import { propertyUnit } from "../registries/fields";
import { withProvenance } from "../provenance";

export interface LiveEnergyCertificateOptions extends LiveClientOptions {
  /** Province → the register that answers there. */
  routes: LiveRegisters["energyCertificate"];
}

export function createLiveEnergyCertificate(options: LiveEnergyCertificateOptions): EnergyCertificateSource {
  const { timeoutMs, ask } = liveClient(options);
  return {
    async lookup(input) {
      const { reference, facts } = input;
      const parcel = reference.slice(0, 14);
      const unit = propertyUnit(reference, facts.reference);
      const client = options.routes.get(facts.provinceCode ?? "");
      if (!client) {
        const summary = { reason: "no_registry_for_region", province: facts.provinceCode };
        return { kind: "not_found", provider: PROVIDERS.estimate, summary };
      }
      return ask(`cee:${client.provider}:${unit ?? parcel}`, input, client.provider, () =>
        client.lookup({ unit, parcel }, timeoutMs).then((o) => withProvenance(o, client.provenance)),
      );
    },
  };
}
