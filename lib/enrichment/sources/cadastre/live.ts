// Live cadastre: Catastro OVC WCF JSON, free and without a key: `Consulta_DNPRC` (facts by
// reference), then `Consulta_CPMRC` (the parcel's point; a failure there leaves the location null
// and does not fail the source). Polite by design, since Catastro blocks abusive clients: a
// per-request timeout, a cap on requests in flight, cached answers, and one request for any number
// of concurrent lookups of a reference. Redirects are followed only between Catastro's own hosts
// (the service has moved domains before: meh.es → hacienda.gob.es).
import type { Location } from "@/lib/domain";
import { PROVIDERS, type CadastreEndpoints, type CadastreFacts, type CadastreSource } from "../types";
import { getText, liveClient, parseJson, type LiveClientOptions, type LookupInput } from "../http";
import { parseCpmrc, parseDnprc } from "./parse";
import { withProvenance } from "../provenance";

export const CATASTRO_BASE_URL = "https://ovc.catastro.meh.es/OVCServWeb/OVCWcfCallejero/COVCCallejero.svc";
export const CATASTRO_COORDINATES_BASE_URL =
  "https://ovc.catastro.meh.es/OVCServWeb/OVCWcfCallejero/COVCCoordenadas.svc";

/** Catastro's hosts, old and new (ovc.catastro.meh.es, *.catastro.hacienda.gob.es, *.sedecatastro.gob.es). */
export const isCatastroHost = (url: URL) =>
  url.protocol === "https:" &&
  /(^|\.)(catastro\.meh\.es|catastro\.hacienda\.gob\.es|sedecatastro\.gob\.es)$/i.test(url.hostname);

export interface LiveCadastreOptions extends LiveClientOptions, CadastreEndpoints {}

export function createLiveCadastre(options: LiveCadastreOptions = {}): CadastreSource {
  const base = (options.baseUrl ?? CATASTRO_BASE_URL).replace(/\/+$/, "");
  const coordinatesBase = (options.coordinatesBaseUrl ?? CATASTRO_COORDINATES_BASE_URL).replace(/\/+$/, "");
  const { timeoutMs, ask } = liveClient(options);
  const get = (url: string) => getText(url, { timeoutMs, followTo: isCatastroHost });

  /** The parcel's point, cached on its own (units of a parcel share it); null whenever it cannot be had. */
  async function locationOf(parcel: string, input: LookupInput): Promise<Location | null> {
    const outcome = await ask<Location>(`cadastre:cpmrc:${parcel}`, input, PROVIDERS.catastro, async () => {
      const url = `${coordinatesBase}/json/Consulta_CPMRC?Provincia=&Municipio=&SRS=EPSG:4326&RefCat=${encodeURIComponent(parcel)}`;
      const location = parseCpmrc(parseJson(await get(url)));
      return location
        ? { kind: "found", data: location, provider: PROVIDERS.catastro }
        : { kind: "not_found", provider: PROVIDERS.catastro };
    });
    return outcome.kind === "found" ? outcome.data : null;
  }

  return {
    async lookup(input) {
      const { reference } = input;
      const outcome = await ask<CadastreFacts>(`cadastre:${reference}`, input, PROVIDERS.catastro, async () => {
        // Provincia and Municipio are sent empty, as in the DGC manual's example: RefCat suffices.
        const url = `${base}/json/Consulta_DNPRC?Provincia=&Municipio=&RefCat=${encodeURIComponent(reference)}`;
        const answer = parseDnprc(parseJson(await get(url)), reference);
        return options.provenance ? withProvenance(answer, options.provenance) : answer;
      });
      if (outcome.kind !== "found") return outcome;
      return { ...outcome, data: { ...outcome.data, location: await locationOf(reference.slice(0, 14), input) } };
    },
  };
}
