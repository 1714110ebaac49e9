// Live cadastre: Catastro OVC WCF JSON `Consulta_DNPRC` by reference (free, no key). Polite by
// design: per-request timeout, a concurrency cap, cached answers and coalesced identical lookups.
import type { CadastreFacts, CadastreSource } from "../types";
import { createCachedLookup, createLimiter, getText, memoryCache, parseJson, type AnswerCache } from "../http";
import { parseDnprc } from "./parse";

export const CATASTRO_BASE_URL = "https://ovc.catastro.meh.es/OVCServWeb/OVCWcfCallejero/COVCCallejero.svc";

export interface LiveCadastreOptions {
  baseUrl?: string;
  timeoutMs?: number;
  maxConcurrent?: number;
  cache?: AnswerCache;
  cacheTtlMs?: number;
}

export function createLiveCadastre(options: LiveCadastreOptions = {}): CadastreSource {
  const base = (options.baseUrl ?? CATASTRO_BASE_URL).replace(/\/$/, "");
  const limit = createLimiter(options.maxConcurrent ?? 4);
  const cached = createCachedLookup(options.cache ?? memoryCache(), options.cacheTtlMs ?? 24 * 3600_000);
  const timeoutMs = options.timeoutMs ?? 5000;
  return {
    lookup({ reference, signal }) {
      return cached<CadastreFacts>(`cadastre:${reference}`, signal, () =>
        limit(signal, async () => {
          const url = `${base}/json/Consulta_DNPRC?Provincia=&Municipio=&RefCat=${encodeURIComponent(reference)}`;
          const { text } = await getText(url, { timeoutMs, signal: new AbortController().signal });
          return parseDnprc(parseJson(text), reference);
        }),
      );
    },
  };
}
