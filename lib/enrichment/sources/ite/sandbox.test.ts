import { describe, expect, it } from "vitest";
import type { CadastreFacts } from "../types";
import { sandboxFacts } from "../cadastre/sandbox";
import { scenarioReference } from "../sandbox";
import { createSandboxIte } from "./sandbox";

const now = new Date("2026-06-01T00:00:00Z");
const ite = createSandboxIte({ now: () => now });
const lookup = (reference: string, facts: Partial<CadastreFacts> = {}, attempt = 1) =>
  ite.lookup({
    reference,
    mode: "test",
    attempt,
    signal: new AbortController().signal,
    facts: { ...sandboxFacts(reference), ...facts },
  });

const MADRID = { provinceCode: "28", municipalityCode: "28079" };
const SEVILLA = { provinceCode: "41", municipalityCode: "41091" };
const references = Array.from({ length: 300 }, (_, i) => `${String(3000000 + i)}VK3799G0001AA`);

describe("sandbox ITE registry", () => {
  it("is not required for buildings younger than the region's first-inspection age", async () => {
    expect(await lookup(references[0]!, { ...MADRID, yearBuilt: 2000 })).toMatchObject({
      kind: "found",
      data: { status: "not_required" },
    });
  });

  it("is unsupported where no confirmed rule exists", async () => {
    expect(await lookup(references[0]!, { ...SEVILLA, yearBuilt: 1950 })).toMatchObject({
      kind: "found",
      data: { status: "unsupported" },
    });
    expect(await lookup(references[0]!, { ...MADRID, yearBuilt: null })).toMatchObject({
      kind: "found",
      data: { status: "unsupported" },
    });
  });

  it("where an inspection is due, finds a record for some buildings and not for others, deterministically", async () => {
    const outcomes = await Promise.all(references.map((r) => lookup(r, { ...MADRID, yearBuilt: 1960 })));
    const found = outcomes.filter((o) => o.kind === "found");
    expect(outcomes.every((o) => o.kind === "not_found" || (o.kind === "found" && o.data.status === "found"))).toBe(
      true,
    );
    expect(found.length).toBeGreaterThan(120);
    expect(found.length).toBeLessThan(240);
    expect(await Promise.all(references.map((r) => lookup(r, { ...MADRID, yearBuilt: 1960 })))).toEqual(outcomes);
  });

  it("dates a found inspection after the building became due and within the last ten years", async () => {
    for (const reference of references) {
      const outcome = await lookup(reference, { ...MADRID, yearBuilt: 1990 }); // due from 2020
      if (outcome.kind !== "found") continue;
      expect(outcome.data).toMatchObject({
        registry: "sandbox",
        result: expect.stringMatching(/^(favourable|unfavourable|conditional)$/),
        reference: expect.stringMatching(/^SBX-ITE-/),
      });
      const inspected = String(outcome.data.inspectedOn);
      expect(inspected >= "2020-01-01" && inspected < "2026-01-01").toBe(true);
    }
  });

  it("has no record yet for a building that becomes due this year", async () => {
    for (const reference of references.slice(0, 50))
      expect(await lookup(reference, { ...MADRID, yearBuilt: 1996 })).toMatchObject({ kind: "not_found" });
  });

  it("where the register holds only report codes (Catalonia's), a building without one is unsupported", async () => {
    const codes = createSandboxIte({ now: () => now, holdsCodes: (province) => province === "08" });
    const BARCELONA = { provinceCode: "08", municipalityCode: "08019", yearBuilt: 1900 };
    const outcomes = await Promise.all(
      references.map((reference) =>
        codes.lookup({
          reference,
          mode: "test",
          attempt: 1,
          signal: new AbortController().signal,
          facts: { ...sandboxFacts(reference), ...BARCELONA },
        }),
      ),
    );
    const statuses = new Set(outcomes.map((o) => (o.kind === "found" ? o.data.status : o.kind)));
    expect(statuses).toEqual(new Set(["found", "unsupported"]));
  });

  it("answers the same for every unit of a building", async () => {
    const a = await lookup("9398516VK3799G0001AY", { ...MADRID, yearBuilt: 1960 });
    const b = await lookup("9398516VK3799G0002SU", { ...MADRID, yearBuilt: 1960 });
    expect(b).toEqual(a);
  });

  it("9300: always fails, whatever the building", async () => {
    const reference = scenarioReference("9300");
    for (const attempt of [1, 2, 3, 5, 10]) {
      expect(await lookup(reference, { ...MADRID, yearBuilt: 2010 }, attempt)).toMatchObject({
        kind: "error",
        code: "registry_unavailable",
      });
      expect(await lookup(reference, {}, attempt)).toMatchObject({ kind: "error" });
    }
  });

  it("honours latency and the abort signal", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    const outcome = await createSandboxIte({ latencyMs: 5000 }).lookup({
      reference: references[0]!,
      mode: "test",
      attempt: 1,
      signal: controller.signal,
      facts: sandboxFacts(references[0]!),
    });
    expect(outcome).toMatchObject({ kind: "error", code: "timeout" });
    expect(Date.now() - started).toBeLessThan(5000); // ended by the abort, not after latencyMs
  });
});
