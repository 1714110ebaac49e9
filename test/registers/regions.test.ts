// The region table and what is derived from it: the 19 communities as the reference data names
// them, the live clients' dispatch, the live-register lists (metrics labels, `registers check`),
// the datasets' communities, and docs/registers.md's population shares by format evidence.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { allCommunities, COMMUNITY_NAMES, isCommunityName, provinceByCode } from "@/lib/reference-data";
import {
  checkTargets,
  DATASETS,
  datasetRegion,
  LIVE_REGISTERS,
  liveProviders,
  liveRegisters,
  populationByCertificateEvidence,
  REGIONS,
  REGISTERS,
} from "@/lib/registers";

describe("the region table", () => {
  it("has the 19 communities and cities of the reference data, by INE code, and no other name", () => {
    expect(REGIONS.map((r) => r.name)).toEqual(allCommunities().map((c) => c.name));
    expect(REGIONS.map((r) => r.name)).toEqual([...COMMUNITY_NAMES]);
    for (const region of REGIONS) expect(isCommunityName(region.name), region.name).toBe(true);
    // The spellings free text used to carry are not names.
    for (const name of ["Comunidad Valenciana", "Catalunya", "Madrid", "Castilla La Mancha"])
      expect(isCommunityName(name), name).toBe(false);
  });

  it("takes provinces and the foral flag from the reference data", () => {
    for (const region of REGIONS) {
      for (const code of region.provinceCodes) expect(provinceByCode(code)!.ccaa).toBe(region.name);
      expect(region.registers.some((r) => r.provider === "catastro-ovc")).toBe(region.catastro);
    }
    expect(REGIONS.filter((r) => !r.catastro).map((r) => r.name)).toEqual(["Comunidad Foral de Navarra", "País Vasco"]);
  });
});

describe("derived from it", () => {
  it("the live clients' dispatch: province → provider, per source", () => {
    const { energyCertificate, ite } = liveRegisters({});
    const providers = (routes: ReadonlyMap<string, { provider: string }>) =>
      Object.fromEntries([...routes].map(([province, client]) => [province, client.provider]));
    expect(providers(energyCertificate)).toEqual({
      ...Object.fromEntries(["08", "17", "25", "43"].map((p) => [p, "icaen-socrata"])),
      ...Object.fromEntries(["03", "12", "46"].map((p) => [p, "gva-wfs"])),
      ...Object.fromEntries(["22", "44", "50"].map((p) => [p, "aragon-gaodcore"])),
    });
    expect(providers(ite)).toEqual({
      ...Object.fromEntries(["08", "17", "25", "43"].map((p) => [p, "icaen-socrata"])),
      ...Object.fromEntries(["03", "12", "46"].map((p) => [p, "gva-gesiee"])),
    });
  });

  it("the live registers' providers (metrics labels, breakers, the admin's health table)", () => {
    expect(liveProviders()).toEqual(["catastro-ovc", "aragon-gaodcore", "icaen-socrata", "gva-wfs", "gva-gesiee"]);
  });

  it("what `registers check` asks: each live register by a reference of its own territory", () => {
    const targets = checkTargets();
    expect(targets.map((t) => `${t.register} ${t.source}`)).toEqual([
      "catastro-ovc cadastre",
      "aragon-gaodcore energy_certificate",
      "icaen-socrata energy_certificate",
      "icaen-socrata ite",
      "gva-wfs energy_certificate",
      "gva-gesiee ite",
    ]);
    for (const target of targets.slice(1)) {
      const region = REGIONS.find((r) => r.live.some((l) => l.provider === target.register))!;
      expect(region.provinceCodes, target.register).toContain(target.province);
    }
  });

  it("every live register and dataset states the evidence its format rests on, with citations", () => {
    for (const { provider, evidence } of LIVE_REGISTERS) expect(evidence.citations.length, provider).toBeGreaterThan(0);
    for (const { id, evidence } of DATASETS) expect(evidence.citations.length, id).toBeGreaterThan(0);
    expect(Object.fromEntries(DATASETS.map((d) => [d.id, d.evidence.level]))).toEqual({
      "and-junta": "single_source",
      "ara-gaodcore": "confirmed",
      "ast-principado": "single_source",
      "can-gobcan": "single_source",
      "ctb-dgicc": "single_source",
      "cyl-jcyl": "single_source",
      "clm-jccm": "single_source",
      "cat-icaen": "confirmed",
      "val-gva": "confirmed",
      "gal-xunta": "single_source",
      "mad-cee": "single_source",
      "mad-ite": "unconfirmed",
      "rio-larioja": "single_source",
    });
  });

  it("each dataset's community, and unique dataset ids", () => {
    expect(new Set(DATASETS.map((d) => d.id)).size).toBe(DATASETS.length);
    expect(datasetRegion(DATASETS.find((d) => d.id === "mad-ite")!).name).toBe("Comunidad de Madrid");
    expect(datasetRegion(DATASETS.find((d) => d.id === "gal-xunta")!).name).toBe("Galicia");
  });

  it("docs/registers.md's population shares by the evidence of each community's certificate source", () => {
    const page = readFileSync("docs/registers.md", "utf8");
    for (const { level, communities, population, share } of populationByCertificateEvidence()) {
      if (!communities.length) continue;
      const name = level === null ? "no certificate source" : `\`${level}\``;
      const figures = `${(population / 1e6).toFixed(1)} million | ${(share * 100).toFixed(1)} %`;
      const row = `| ${name} | ${communities.join(", ")} | ${figures} |`;
      expect(page, row).toContain(row);
    }
  });

  it("docs/registers.md lists every register module, its datasets and its licence", () => {
    const doc = readFileSync("docs/registers.md", "utf8");
    for (const r of REGISTERS) {
      const row = doc.split("\n").find((line) => line.startsWith(`| \`${r.id}\` |`));
      expect(row, r.id).toBeDefined();
      for (const d of r.datasets) expect(row, d.id).toContain(`\`${d.id}\` (${d.evidence.level})`);
      expect(row, r.id).toContain(r.licence.name);
    }
  });
});
