import { describe, expect, it } from "vitest";
import { checkReference, unitNumber } from "@/lib/cadastral-reference";
import { ccaaForProvince, climateZoneForMunicipality } from "@/lib/reference-data";
import { municipalityByIne, provinceByCode, sandboxMunicipalities } from "@/lib/reference-data";
import { draw, scenarioOf, scenarioReference, SCENARIOS, type ScenarioUnit } from "../sandbox";
import { createSandboxCadastre, sandboxFacts } from "./sandbox";

const input = (reference: string, attempt = 1, signal = new AbortController().signal) => ({
  reference,
  mode: "test" as const,
  attempt,
  signal,
});
const UNITS = Object.values(SCENARIOS) as ScenarioUnit[];

describe("scenarioReference", () => {
  it("builds valid 20-character references that select each scenario", () => {
    for (const unit of UNITS) {
      for (const seed of [0, 1, "docs", 42]) {
        const reference = scenarioReference(unit, seed);
        expect(checkReference(reference)).toEqual({ ok: true, reference, length: 20 });
        expect(unitNumber(reference)).toBe(unit);
        expect(scenarioOf(reference)).toBe(unit);
      }
    }
  });

  it("is deterministic, and one seed gives one parcel for all scenarios", () => {
    expect(scenarioReference("9100")).toBe(scenarioReference("9100", 0));
    expect(new Set(UNITS.map((u) => scenarioReference(u, 7).slice(0, 14))).size).toBe(1);
    expect(scenarioReference("9100", 1).slice(0, 14)).not.toBe(scenarioReference("9100", 2).slice(0, 14));
    expect(scenarioReference("9100", 3)).toMatch(/^\d{7}[A-Z]{2}\d{4}[A-Z]9100[A-Z]{2}$/);
  });

  it("ignores other unit numbers", () => {
    expect(scenarioOf("9398516VK3799G0001AY")).toBeNull();
    expect(scenarioOf("9398516VK3799G9999AA")).toBeNull();
    expect(scenarioOf("9398516VK3799G")).toBeNull();
  });
});

describe("draw", () => {
  it("is a deterministic stream in [0, 1) that does not repeat", () => {
    const a = draw("key");
    const values = Array.from({ length: 64 }, a);
    const b = draw("key");
    expect(Array.from({ length: 64 }, b)).toEqual(values);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(new Set(values).size).toBe(64);
    expect(draw("other")()).not.toBe(values[0]);
  });
});

describe("sandboxFacts", () => {
  it("is deterministic per reference", () => {
    expect(sandboxFacts("9398516VK3799G0001AY")).toEqual(sandboxFacts("9398516VK3799G0001AY"));
  });

  it("places references in real towns, so a real community and climate zone follow", () => {
    const towns = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const facts = sandboxFacts(`${String(1000000 + i)}VK3799G`);
      const town = municipalityByIne(facts.municipalityCode!)!;
      towns.add(town.ine);
      expect(sandboxMunicipalities()).toContain(town);
      expect(facts.provinceCode).toBe(town.provinceCode);
      expect(facts.municipality).toBe(town.name.toUpperCase());
      expect(facts.province).toBe(provinceByCode(town.provinceCode)!.name.toUpperCase());
      expect(ccaaForProvince(facts.provinceCode!)).toBeTruthy();
      expect(climateZoneForMunicipality(facts.municipalityCode!)).toMatch(/^[αABCDE][1-4]$/);
    }
    expect(towns.size).toBeGreaterThan(200);
  });

  it("shares the building between units of a parcel and varies the unit", () => {
    const a = sandboxFacts("9398516VK3799G0001AY");
    const b = sandboxFacts("9398516VK3799G0002SU");
    const parcel = sandboxFacts("9398516VK3799G");
    const street = a.address!.split(" Es:")[0]!;
    for (const facts of [b, parcel]) {
      expect(facts).toMatchObject({ kind: "urban", municipalityCode: a.municipalityCode, yearBuilt: a.yearBuilt });
      expect(facts.address!.startsWith(`${street} `)).toBe(true);
    }
    expect(b.address).not.toBe(a.address);
    expect(parcel.units).toBeGreaterThanOrEqual(1);
    expect(a.units).toBeUndefined();
    expect(a.address).toMatch(/ Es:1 Pl:\d\d Pt:[A-D] /);
  });

  it("draws years 1900–2024, mostly residential uses and a surface", () => {
    const facts = Array.from({ length: 500 }, (_, i) =>
      sandboxFacts(scenarioReference("9100", i).slice(0, 14) + "0001AA"),
    );
    expect(facts.every((f) => f.yearBuilt! >= 1900 && f.yearBuilt! <= 2024 && f.surfaceM2! > 0)).toBe(true);
    expect(Math.min(...facts.map((f) => f.yearBuilt!))).toBeLessThan(1920);
    expect(Math.max(...facts.map((f) => f.yearBuilt!))).toBeGreaterThan(2010);
    expect(facts.filter((f) => f.use === "Residencial").length).toBeGreaterThan(300);
  });

  it("honours the Catastro municipality of a rustic reference", () => {
    const facts = sandboxFacts("13005A109000050000SL");
    expect(facts).toMatchObject({
      kind: "rustic",
      municipalityCode: "13005",
      provinceCode: "13",
      use: "Agrario",
      yearBuilt: null,
    });
    expect(facts.address).toMatch(/^Polígono 109 Parcela 5 /);
    expect(sandboxFacts("28900A00100001")).toMatchObject({ kind: "rustic", municipalityCode: "28079", units: 1 }); // Madrid: Catastro 28900
  });
});

describe("createSandboxCadastre", () => {
  it("answers other references at once, with the sandbox facts", async () => {
    const started = Date.now();
    const outcome = await createSandboxCadastre({ slowMs: 5000 }).lookup(input("9398516VK3799G0001AY"));
    expect(Date.now() - started).toBeLessThan(5000); // not slowMs: that is 9100's first attempt only
    expect(outcome).toEqual({
      kind: "found",
      data: sandboxFacts("9398516VK3799G0001AY"),
      provider: "sandbox",
      summary: expect.objectContaining({ register: "sandbox" }),
    });
  });

  it("9100: the first attempt takes slowMs, so the deadline's abort turns it into a timeout", async () => {
    const cadastre = createSandboxCadastre({ slowMs: 5000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    expect(await cadastre.lookup(input(scenarioReference("9100"), 1, controller.signal))).toMatchObject({
      kind: "error",
      code: "timeout",
    });
    expect(Date.now() - started).toBeLessThan(5000); // ended by the abort, not after slowMs
  });

  it("9100: without an abort the first attempt answers after slowMs; later attempts at once", async () => {
    let started = Date.now();
    expect(await createSandboxCadastre({ slowMs: 80 }).lookup(input(scenarioReference("9100"), 1))).toMatchObject({
      kind: "found",
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
    started = Date.now();
    expect(await createSandboxCadastre({ slowMs: 5000 }).lookup(input(scenarioReference("9100"), 2))).toMatchObject({
      kind: "found",
      summary: { scenario: "9100" },
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("9404: the reference does not exist", async () => {
    const cadastre = createSandboxCadastre();
    for (const attempt of [1, 2])
      expect(await cadastre.lookup(input(scenarioReference("9404", attempt), attempt))).toMatchObject({
        kind: "not_found",
      });
  });

  it("delays every answer by latencyMs and stops at an abort", async () => {
    let started = Date.now();
    await createSandboxCadastre({ latencyMs: 60 }).lookup(input("9398516VK3799G0001AY"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    const controller = new AbortController();
    controller.abort();
    started = Date.now();
    expect(
      await createSandboxCadastre({ latencyMs: 5000 }).lookup(input("9398516VK3799G0001AY", 1, controller.signal)),
    ).toMatchObject({ code: "timeout" });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
