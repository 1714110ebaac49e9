// Live cadastre: Catastro OVC WCF JSON `Consulta_DNPRC` by reference (free, no key). Polite by
// design, since Catastro blocks abusive clients: a per-request timeout, a cap on requests in
// flight, cached answers, and one request for any number of concurrent lookups of a reference.
import type { CadastreFacts, CadastreSource } from "../types";
import { getText, liveClient, parseJson, type LiveClientOptions } from "../http";
import { parseDnprc } from "./parse";

export const CATASTRO_BASE_URL = "https://ovc.catastro.meh.es/OVCServWeb/OVCWcfCallejero/COVCCallejero.svc";

export interface LiveCadastreOptions extends LiveClientOptions {
  /** The WCF service root (without `/json/...`). Default: Catastro's. */
  baseUrl?: string;
}

export function createLiveCadastre(options: LiveCadastreOptions = {}): CadastreSource {
  const base = (options.baseUrl ?? CATASTRO_BASE_URL).replace(/\/+$/, "");
  const { timeoutMs, lookup } = liveClient(options);
  return {
    lookup({ reference, signal }) {
      return lookup<CadastreFacts>(`cadastre:${reference}`, signal, async () => {
        // Provincia and Municipio are sent empty, as in the DGC manual's example: RefCat suffices.
        const url = `${base}/json/Consulta_DNPRC?Provincia=&Municipio=&RefCat=${encodeURIComponent(reference)}`;
        return parseDnprc(parseJson(await getText(url, { timeoutMs })), reference);
      });
    },
  };
}
