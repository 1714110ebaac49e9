// Live ITE: the regional first-inspection rules, then a registry lookup where one can be queried
// by reference. Only Catalonia's CEE dataset carries evidence of an inspection (the IITE code in
// `informe_ins_tecnica_edifici`); every other registry found is address-keyed or not open, so
// buildings there that need an inspection are `unsupported`.
import { ccaaForProvince } from "@/lib/reference-data";
import type { IteResult, IteSource } from "../types";
import { createCachedLookup, createLimiter, memoryCache, type AnswerCache } from "../http";
import { CATALONIA_BASE_URL, CATALONIA_PROVINCES, cataloniaRows } from "../registries/catalonia";
import { iteRequirement } from "./rules";

export interface LiveIteOptions {
  cataloniaBaseUrl?: string;
  timeoutMs?: number;
  maxConcurrent?: number;
  cache?: AnswerCache;
  cacheTtlMs?: number;
  now?: () => Date;
}

export function createLiveIte(options: LiveIteOptions = {}): IteSource {
  const limit = createLimiter(options.maxConcurrent ?? 4);
  const cached = createCachedLookup(options.cache ?? memoryCache(), options.cacheTtlMs ?? 24 * 3600_000);
  return {
    async lookup({ reference, facts, signal }) {
      const ccaa = facts.provinceCode ? ccaaForProvince(facts.provinceCode) : null;
      const requirement = iteRequirement({ ccaa, yearBuilt: facts.yearBuilt, now: options.now?.() });
      if (requirement === "not_required") return { kind: "found", data: { status: "not_required" }, summary: { ccaa } };
      if (requirement === "unknown" || !CATALONIA_PROVINCES.has(facts.provinceCode ?? "")) {
        return { kind: "found", data: { status: "unsupported" }, summary: { ccaa, requirement } };
      }
      return cached<IteResult>(`ite:cat:${reference}`, signal, () =>
        limit(signal, async () => {
          const hit = await cataloniaRows(options.cataloniaBaseUrl ?? CATALONIA_BASE_URL, reference, {
            timeoutMs: options.timeoutMs ?? 5000,
            where: "informe_ins_tecnica_edifici IS NOT NULL",
          });
          if (!hit?.row.informe_ins_tecnica_edifici) return { kind: "not_found", summary: { registry: "ICAEN (j6ii-t3w2)" } };
          return {
            kind: "found",
            data: { status: "found", details: { registry: "ICAEN (j6ii-t3w2)", iite_code: hit.row.informe_ins_tecnica_edifici, scope: hit.scope } },
          };
        }),
      );
    },
  };
}
