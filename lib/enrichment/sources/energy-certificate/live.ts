// Live certificate lookup in the regional registries that can be queried by reference: Catalonia
// (ICAEN, Socrata) and the Comunitat Valenciana (GVA, WFS). Elsewhere there is no such registry:
// `not_found` at once, and the pipeline estimates the rating.
import type { EnergyCertificateSource, RegistryCertificate } from "../types";
import { createCachedLookup, createLimiter, memoryCache, UpstreamError, type AnswerCache } from "../http";
import { CATALONIA_BASE_URL, CATALONIA_PROVINCES, cataloniaRows } from "../registries/catalonia";
import { VALENCIA_BASE_URL, VALENCIA_PROVINCES, valenciaFeature } from "../registries/valencia";

export interface LiveEnergyCertificateOptions {
  cataloniaBaseUrl?: string;
  valenciaBaseUrl?: string;
  timeoutMs?: number;
  maxConcurrent?: number;
  cache?: AnswerCache;
  cacheTtlMs?: number;
}

const letter = (value: unknown): RegistryCertificate["rating"] => {
  const l = String(value ?? "").trim().toUpperCase();
  if (!/^[A-G]$/.test(l)) throw new UpstreamError("malformed", `not a rating letter: ${JSON.stringify(value)}`);
  return l as RegistryCertificate["rating"];
};

export function createLiveEnergyCertificate(options: LiveEnergyCertificateOptions = {}): EnergyCertificateSource {
  const limit = createLimiter(options.maxConcurrent ?? 4);
  const cached = createCachedLookup(options.cache ?? memoryCache(), options.cacheTtlMs ?? 24 * 3600_000);
  const timeoutMs = options.timeoutMs ?? 5000;
  return {
    async lookup({ reference, facts, signal }) {
      const province = facts.provinceCode ?? "";
      if (CATALONIA_PROVINCES.has(province)) {
        return cached<RegistryCertificate>(`cee:cat:${reference}`, signal, () =>
          limit(signal, async () => {
            const hit = await cataloniaRows(options.cataloniaBaseUrl ?? CATALONIA_BASE_URL, reference, { timeoutMs });
            if (!hit) return { kind: "not_found", summary: { registry: "ICAEN (j6ii-t3w2)" } };
            return {
              kind: "found",
              data: {
                rating: letter(hit.row.qualificaci_de_consum_d),
                source: "registry",
                registry: "ICAEN (j6ii-t3w2)",
                ...(hit.row.num_cas ? { certificate_id: hit.row.num_cas } : {}),
                ...(hit.row.data_entrada ? { issued_on: hit.row.data_entrada.slice(0, 10) } : {}),
                scope: hit.scope,
              },
            };
          }),
        );
      }
      if (VALENCIA_PROVINCES.has(province)) {
        return cached<RegistryCertificate>(`cee:val:${reference}`, signal, () =>
          limit(signal, async () => {
            const hit = await valenciaFeature(options.valenciaBaseUrl ?? VALENCIA_BASE_URL, reference, timeoutMs);
            if (!hit) return { kind: "not_found", summary: { registry: "GVA GCEE WFS" } };
            const p = hit.feature.properties ?? {};
            return {
              kind: "found",
              data: {
                rating: letter(p.cer_concalificacion),
                source: "registry",
                registry: "GVA GCEE WFS",
                ...(hit.feature.id ? { certificate_id: String(hit.feature.id) } : {}),
                ...(p.validohasta ? { valid_until: String(p.validohasta).slice(0, 10) } : {}),
                scope: hit.scope,
              },
            };
          }),
        );
      }
      return { kind: "not_found", summary: { reason: "no_registry_for_region" } };
    },
  };
}
