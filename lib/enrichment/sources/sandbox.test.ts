import { describe, expect, it } from "vitest";
import { checkReference } from "@/lib/cadastral-reference";
import { climateZoneForMunicipality } from "@/lib/reference-data";
import { ccaaForProvince } from "@/lib/reference-data";
import { createSandboxCadastre, sandboxFacts } from "./cadastre/sandbox";
import { createSandboxEnergyCertificate } from "./energy-certificate/sandbox";
import { createSandboxIte } from "./ite/sandbox";
import { scenarioReference } from "./sandbox";

const input = (reference: string, attempt = 1, signal = new AbortController().signal) => ({
  reference,
  mode: "test" as const,
  attempt,
  signal,
});

describe("sandbox registers", () => {
  it("scenario references are valid references", () => {
    for (const unit of ["9100", "9200", "9300", "9404"] as const)
      expect(checkReference(scenarioReference(unit)).ok).toBe(true);
  });

  it("are deterministic and drawn from real reference data", () => {
    const a = sandboxFacts("9398516VK3799G0001AY");
    expect(sandboxFacts("9398516VK3799G0001AY")).toEqual(a);
    expect(sandboxFacts("9398516VK3799G0002SU")).not.toEqual(a);
    expect(ccaaForProvince(a.provinceCode!)).toBeTruthy();
    expect(climateZoneForMunicipality(a.municipalityCode!)).toMatch(/^[αABCDE][1-4]$/);
  });

  it("honours the Catastro codes of a rustic reference", () => {
    expect(sandboxFacts("13005A109000050000SL")).toMatchObject({ kind: "rustic", municipalityCode: "13005" });
  });

  it("9100: the first cadastre attempt misses the deadline, the next answers", async () => {
    const cadastre = createSandboxCadastre({ slowMs: 5000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    expect(await cadastre.lookup(input(scenarioReference("9100"), 1, controller.signal))).toMatchObject({
      kind: "error",
      code: "timeout",
    });
    expect(Date.now() - started).toBeLessThan(5000); // ended by the abort, not after slowMs
    expect(await cadastre.lookup(input(scenarioReference("9100"), 2))).toMatchObject({ kind: "found" });
  });

  it("9404: the cadastre does not know the reference", async () => {
    expect(await createSandboxCadastre().lookup(input(scenarioReference("9404")))).toMatchObject({ kind: "not_found" });
  });

  it("9200: the certificate registry fails twice, then answers", async () => {
    const cee = createSandboxEnergyCertificate();
    const ref = scenarioReference("9200");
    const facts = sandboxFacts(ref);
    expect(await cee.lookup({ ...input(ref, 1), facts })).toMatchObject({ kind: "error" });
    expect(await cee.lookup({ ...input(ref, 2), facts })).toMatchObject({ kind: "error" });
    expect((await cee.lookup({ ...input(ref, 3), facts })).kind).not.toBe("error");
  });

  it("9300: the ITE registry always fails", async () => {
    const ite = createSandboxIte();
    const ref = scenarioReference("9300");
    for (const attempt of [1, 2, 5, 9])
      expect(await ite.lookup({ ...input(ref, attempt), facts: sandboxFacts(ref) })).toMatchObject({ kind: "error" });
  });

  it("about half of the references hold a certificate", async () => {
    const cee = createSandboxEnergyCertificate();
    let found = 0;
    for (let i = 0; i < 200; i++) {
      const ref = `${String(1000000 + i)}VK3799G`;
      if ((await cee.lookup({ ...input(ref), facts: sandboxFacts(ref) })).kind === "found") found++;
    }
    expect(found).toBeGreaterThan(70);
    expect(found).toBeLessThan(130);
  });

  it("adds the configured latency", async () => {
    const started = Date.now();
    await createSandboxCadastre({ latencyMs: 60 }).lookup(input("9398516VK3799G0001AY"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });
});
