// The Socrata answers replayed here are CONSTRUCTED from the documented field names (see
// ../registries/fixtures/README.md), not captured.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startReplayServer, type ReplayServer } from "../testing/replay-server";
import type { CataloniaRow } from "@/lib/registers/icaen/client";
import { liveRegisters } from "@/lib/registers";
import type { CadastreFacts } from "../types";
import { createLiveIte } from "./live";

const fixture = (name: string) => readFileSync(path.join(__dirname, "../registries/fixtures", name), "utf8");

const INSPECTED = "0625102DF3802F0003EP"; // its building has an IITE code on record
const UNINSPECTED = "1416301YJ2711N0002MY";

const facts = (provinceCode: string | null, yearBuilt: number | null): CadastreFacts => ({
  reference: "x",
  kind: "urban",
  address: null,
  municipality: null,
  province: null,
  provinceCode,
  municipalityCode: null,
  use: "Residencial",
  surfaceM2: 80,
  yearBuilt,
});
const input = (reference: string, f: CadastreFacts) => ({
  reference,
  mode: "live" as const,
  attempt: 1,
  signal: new AbortController().signal,
  facts: f,
});

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
  server.on(/\/resource\/j6ii-t3w2\.json/, (url) => {
    const where = url.searchParams.get("$where") ?? "";
    if (where.includes("'1111111HANG000'")) return { hang: true };
    const wanted = "AND informe_ins_tecnica_edifici IS NOT NULL AND informe_ins_tecnica_edifici != ''";
    if (
      where === `starts_with(referencia_cadastral, '0625102DF3802F') ${wanted}` &&
      url.searchParams.get("$limit") === "1"
    ) {
      // Its newest certificate with an IITE code (the building's own, in this parcel).
      const rows = (JSON.parse(fixture("socrata-j6ii-t3w2-parcel-0625102DF3802F.json")) as CataloniaRow[]).filter(
        (r) => r.informe_ins_tecnica_edifici,
      );
      return { body: JSON.stringify(rows.slice(0, 1)) };
    }
    return { body: "[]" };
  });
  server.on(/0801_GESIEE/, (url) => {
    const filter = url.searchParams.get("FILTER") ?? "";
    if (url.searchParams.get("typeNames") !== "ms:GESIEE.Informes")
      return { body: fixture("wfs-exceptionreport-invalid-filter.xml"), contentType: "text/xml" };
    if (
      filter.includes(
        "<fes:ValueReference>inf_refcatastral</fes:ValueReference><fes:Literal>1416301YJ2711N</fes:Literal>",
      )
    )
      return { body: fixture("wfs-gesiee-informes-parcel-1416301YJ2711N.geojson") };
    return { body: fixture("wfs-ceeedificios-empty.geojson") };
  });
});
afterAll(() => server.close());

/** What every live answer adds: its register's licence and notice, and when it was read (today). */
const read = (attribution: string) => ({
  licence: "CC-BY-4.0",
  attribution,
  as_of: new Date().toISOString().slice(0, 10),
  retrieved_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
});

const ite = (options: Partial<Parameters<typeof createLiveIte>[0]> = {}) =>
  createLiveIte({
    now: () => new Date("2026-06-01"),
    // The region table's routes (lib/registers), every register asked at the replay server.
    routes: liveRegisters({ CEE_CATALONIA_BASE_URL: server.url, ITE_VALENCIA_BASE_URL: `${server.url}/0801_GESIEE` })
      .ite,
    ...options,
  });

describe("live ITE", () => {
  it("Comunitat Valenciana, assessment due: the parcel's newest IEE.CV report, its expiry and pending urgent work", async () => {
    const outcome = await ite().lookup(input(UNINSPECTED, facts("46", 1962)));
    expect(outcome).toEqual({
      kind: "found",
      provider: "gva-gesiee",
      data: {
        status: "found",
        registry: "GVA GESIEE (IEE.CV)",
        reference: "IEE/U/2024/05/046/0000498",
        nextDueOn: "2034-05-20",
        result: "unfavourable",
      },
      summary: {
        registry: "GVA GESIEE (IEE.CV)",
        urgent_interventions: 3,
        urgent_state: "INTu sin ejecutar",
        assessed: "Completo",
        requirement: "required",
        ...read("Generalitat Valenciana"),
      },
    });
  });

  it("Comunitat Valenciana: no report of the parcel is not_found", async () => {
    expect(await ite().lookup(input("2749704YJ0624N0001DI", facts("46", 1950)))).toMatchObject({
      kind: "not_found",
      provider: "gva-gesiee",
    });
  });

  it("not_required below the confirmed first-inspection age, without a request", async () => {
    const before = server.requests.length;
    expect(await ite().lookup(input(INSPECTED, facts("08", 1990)))).toMatchObject({
      kind: "found",
      data: { status: "not_required" },
    }); // Cataluña: 45
    expect(await ite().lookup(input(INSPECTED, facts("28", 2000)))).toMatchObject({
      kind: "found",
      data: { status: "not_required" },
    }); // Madrid: 30
    expect(server.requests.length).toBe(before);
  });

  it("Catalonia, inspection due: an IITE code on any certificate of the building is found", async () => {
    expect(await ite().lookup(input(INSPECTED, facts("08", 1958)))).toEqual({
      kind: "found",
      // The IITE code is the inspection's reference; the row's date is its energy certificate's.
      data: { status: "found", registry: "ICAEN (j6ii-t3w2)", reference: "IITE-08-2016-004517" },
      provider: "icaen-socrata",
      summary: {
        registry: "ICAEN (j6ii-t3w2)",
        certificate_id: "B7M2X9QF3D",
        reported_on: "2016-09-20",
        requirement: "required",
        ...read("Institut Català d'Energia (ICAEN), Generalitat de Catalunya"),
      },
    });
  });

  it("Catalonia: no code on record is unsupported (no inspection register); a year unknown still asks", async () => {
    expect(await ite().lookup(input(UNINSPECTED, facts("43", 1950)))).toEqual({
      kind: "found",
      data: { status: "unsupported" },
      provider: "icaen-socrata",
      summary: { registry: "ICAEN (j6ii-t3w2)", requirement: "required", reason: "no_inspection_code" },
    });
    expect(await ite().lookup(input(INSPECTED, facts("17", null)))).toMatchObject({
      kind: "found",
      data: { status: "found" },
      summary: { requirement: "unknown" },
    });
  });

  it("one lookup per building: units of a parcel share the answer", async () => {
    const i = ite();
    const asked = () => server.count(/starts_with\(referencia_cadastral, '0625102DF3802F'\)/);
    const before = asked();
    await Promise.all(
      ["0625102DF3802F0001QI", "0625102DF3802F0003EP", "0625102DF3802F0007UF"].map((r) =>
        i.lookup(input(r, facts("08", 1958))),
      ),
    );
    await i.lookup(input("0625102DF3802F", facts("08", 1958)));
    expect(asked() - before).toBe(1);
  });

  it("the shared answer carries each unit's own requirement", async () => {
    const i = ite();
    expect(await i.lookup(input("0625102DF3802F0001QI", facts("08", 1958)))).toMatchObject({
      summary: { requirement: "required" },
    });
    expect(await i.lookup(input("0625102DF3802F0003EP", facts("08", null)))).toMatchObject({
      data: { status: "found" },
      summary: { cached: true, requirement: "unknown" },
    });
  });

  it("a registry that does not answer is a timeout error (retried by the pipeline)", async () => {
    expect(await ite({ timeoutMs: 100 }).lookup(input("1111111HANG0000001XX", facts("08", 1950)))).toMatchObject({
      kind: "error",
      code: "timeout",
    });
  });

  it("elsewhere, or where the rule is unconfirmed: unsupported, without a request", async () => {
    const before = server.requests.length;
    expect(await ite().lookup(input(INSPECTED, facts("28", 1950)))).toMatchObject({
      kind: "found",
      data: { status: "unsupported" },
    }); // Madrid, due: lists by address only
    expect(await ite().lookup(input(INSPECTED, facts("41", 2020)))).toMatchObject({
      kind: "found",
      data: { status: "unsupported" },
    }); // Andalucía: rule unconfirmed
    expect(await ite().lookup(input(INSPECTED, facts(null, 1950)))).toMatchObject({
      kind: "found",
      data: { status: "unsupported" },
    });
    expect(server.requests.length).toBe(before);
  });
});
