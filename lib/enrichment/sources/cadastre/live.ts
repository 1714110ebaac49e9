// Live cadastre: Catastro OVC WCF JSON `Consulta_DNPRC` by reference (free, no key). Polite by
// design, since Catastro blocks abusive clients: a per-request timeout, a cap on requests in
// flight, cached answers, and one request for any number of concurrent lookups of a reference.
import type { CadastreFacts, CadastreSource } from "../types";
import { createCachedLookup, createLimiter, getText, memoryCache, parseJson, type AnswerCache } from "../http";
import { parseDnprc } from "./parse";

export const CATASTRO_BASE_URL = "https://ovc.catastro.meh.es/OVCServWeb/OVCWcfCallejero/COVCCallejero.svc";

export interface LiveCadastreOptions {
  /** The WCF service root (without `/json/...`). Default: Catastro's. */
  baseUrl?: string;
  /** Per request, default 5000 ms; a caller's `signal` may stop waiting earlier. */
  timeoutMs?: number;
  /** Requests in flight at once in this process, default 4; the rest queue. */
  maxConcurrent?: number;
  /** Where found / not_found answers are kept; default an in-memory LRU of 10,000. */
  cache?: AnswerCache;
  /** Default 24 h. */
  cacheTtlMs?: number;
}

export function createLiveCadastre(options: LiveCadastreOptions = {}): CadastreSource {
  const base = (options.baseUrl ?? CATASTRO_BASE_URL).replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 5000;
  const lookup = createCachedLookup({
    cache: options.cache ?? memoryCache(),
    ttlMs: options.cacheTtlMs ?? 24 * 3600_000,
    limit: createLimiter(options.maxConcurrent ?? 4),
  });
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
