// The closed set of providers (lib/enrichment/sources/providers.ts) against the register list it
// cannot import: every live register names a listed provider, every listed one is some register's,
// and every dataset and cadastre copy source makes a well-formed `index:` provider.
import { describe, expect, it } from "vitest";
import { CADASTRE_SOURCES } from "@/lib/domain";
import { indexProvider, LIVE_PROVIDERS, Provider, PROVIDERS } from "@/lib/enrichment/sources/providers";
import { DATASETS, LIVE_REGISTERS, REGISTERS } from "@/lib/registers";

describe("providers", () => {
  it("the live ones are exactly the register list's", () => {
    const named = REGISTERS.flatMap((r) => r.live.map((l) => l.provider));
    expect(new Set(named)).toEqual(new Set(LIVE_PROVIDERS));
    expect(new Set(LIVE_REGISTERS.map((l) => l.provider))).toEqual(new Set(LIVE_PROVIDERS));
    // The cadastre's live register is the engine's own client.
    expect(LIVE_PROVIDERS).toContain(PROVIDERS.catastro);
  });

  it("decode as stored: every named provider and every index one, nothing else", () => {
    const indexed = [...DATASETS.map((d) => d.id), ...CADASTRE_SOURCES].map(indexProvider);
    for (const provider of [...Object.values(PROVIDERS), ...LIVE_PROVIDERS, ...indexed])
      expect(Provider.safeParse(provider).success, provider).toBe(true);
    for (const other of ["x", "none", "index:", "index:Bad Name", "icaen", "catastro", 7, null])
      expect(Provider.safeParse(other).success, String(other)).toBe(false);
  });
});
