import { describe, expect, it } from "vitest";
import type { CadastreFacts } from "../types";
import { sandboxFacts } from "../cadastre/sandbox";
import { scenarioReference } from "../sandbox";
import { createSandboxEnergyCertificate } from "./sandbox";

const lookup = (
  reference: string,
  attempt = 1,
  facts: CadastreFacts = sandboxFacts(reference),
  latencyMs = 0,
  signal = new AbortController().signal,
) => createSandboxEnergyCertificate({ latencyMs }).lookup({ reference, mode: "test", attempt, signal, facts });

const references = Array.from({ length: 400 }, (_, i) => `${String(2000000 + i)}VK3799G0001AA`);

describe("sandbox energy certificate registry", () => {
  it("is deterministic per reference", async () => {
    for (const reference of references.slice(0, 20)) expect(await lookup(reference)).toEqual(await lookup(reference));
  });

  it("holds a certificate for about half of the rateable units, the rest not_found", async () => {
    const outcomes = await Promise.all(references.map((r) => lookup(r, 1, { ...sandboxFacts(r), use: "Residencial" })));
    const found = outcomes.filter((o) => o.kind === "found").length;
    expect(outcomes.every((o) => o.kind === "found" || o.kind === "not_found")).toBe(true);
    expect(found).toBeGreaterThan(160);
    expect(found).toBeLessThan(240);
  });

  it("answers registry certificates with an id and an issue date after construction and June 2013", async () => {
    for (const reference of references) {
      const facts = sandboxFacts(reference);
      const outcome = await lookup(reference, 1, facts);
      if (outcome.kind !== "found") continue;
      const c = outcome.data;
      expect(c).toMatchObject({ registry: "sandbox", certificateId: expect.stringMatching(/^SBX-\d{2}-[0-9A-Z]{6}$/) });
      expect(c.rating).toMatch(/^[A-G]$/);
      expect(c.issuedOn! >= "2013-06-01" && c.issuedOn! <= "2025-12-31").toBe(true);
      expect(Number(c.issuedOn!.slice(0, 4))).toBeGreaterThan(facts.yearBuilt!);
    }
  });

  it("draws letters that fit the year built", async () => {
    const ratings = async (yearBuilt: number) => {
      const outcomes = await Promise.all(
        references.map((r) => lookup(r, 1, { ...sandboxFacts(r), use: "Residencial", yearBuilt })),
      );
      return outcomes.flatMap((o) => (o.kind === "found" ? [o.data.rating] : []));
    };
    // Drawn from the estimate model: post-2013 buildings mostly A-C (Spain's 2017 new builds: A+B+C
    // 54 %), pre-1980 ones mostly E-G.
    const share = (letters: string[], allowed: string) =>
      letters.filter((r) => allowed.includes(r)).length / letters.length;
    expect(share(await ratings(2022), "ABC")).toBeGreaterThan(0.45);
    expect(share(await ratings(1960), "EFG")).toBeGreaterThan(0.7);
  });

  it("has nothing for units no certificate rates, or without a year", async () => {
    for (const reference of references.slice(0, 50)) {
      expect(await lookup(reference, 1, { ...sandboxFacts(reference), use: "Almacen-Estacionamiento" })).toMatchObject({
        kind: "not_found",
      });
      expect(await lookup(reference, 1, { ...sandboxFacts(reference), yearBuilt: null })).toMatchObject({
        kind: "not_found",
      });
    }
  });

  it("9200: fails attempts 1 and 2 with registry_unavailable, then answers", async () => {
    for (const seed of [0, 1, 2]) {
      const reference = scenarioReference("9200", seed);
      expect(await lookup(reference, 1)).toMatchObject({ kind: "error", code: "registry_unavailable" });
      expect(await lookup(reference, 2)).toMatchObject({ kind: "error", code: "registry_unavailable" });
      expect((await lookup(reference, 3)).kind).not.toBe("error");
      expect(await lookup(reference, 4)).toEqual(await lookup(reference, 3));
    }
  });

  it("other scenarios answer normally", async () => {
    for (const unit of ["9100", "9300"] as const)
      expect((await lookup(scenarioReference(unit), 1)).kind).not.toBe("error");
  });

  it("honours latency and the abort signal", async () => {
    const started = Date.now();
    await lookup(references[0]!, 1, undefined, 60);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    expect(await lookup(references[0]!, 1, undefined, 5000, controller.signal)).toMatchObject({
      kind: "error",
      code: "timeout",
    });
  });
});
