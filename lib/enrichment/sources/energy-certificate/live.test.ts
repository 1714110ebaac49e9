// Registry answers below are constructed from the documented field names (Socrata j6ii-t3w2,
// GVA WFS ms:CEEEdificios); they are not captured responses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplayServer, type ReplayServer } from "../testing/replay-server";
import { createLiveEnergyCertificate } from "./live";
import { createLiveIte } from "../ite/live";
import type { CadastreFacts } from "../types";

const facts = (provinceCode: string, yearBuilt = 1960): CadastreFacts => ({
  reference: "x", kind: "urban", address: null, municipality: null, province: null, provinceCode, municipalityCode: null, use: "Residencial", surfaceM2: 80, yearBuilt,
});
const input = (reference: string, f: CadastreFacts) => ({ reference, mode: "live" as const, attempt: 1, signal: new AbortController().signal, facts: f });

const CAT_UNIT = "0000001AB0000A0001XX";
const CAT_BUILDING_ONLY = "0000002AB0000A0001XX";
const VAL_UNIT = "0000003AB0000A0001XX";

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
  server.on(/\/resource\/j6ii-t3w2\.json/, (url) => {
    const where = url.searchParams.get("$where") ?? "";
    if (where.includes("informe_ins_tecnica_edifici IS NOT NULL")) {
      return { body: where.includes("0000001AB0000A") ? JSON.stringify([{ referencia_cadastral: CAT_UNIT, informe_ins_tecnica_edifici: "IITE-2019-123" }]) : "[]" };
    }
    if (where === `referencia_cadastral = '${CAT_UNIT}'`) {
      return { body: JSON.stringify([{ referencia_cadastral: CAT_UNIT, num_cas: "HK9X7Y", data_entrada: "2019-05-10T00:00:00.000", qualificaci_de_consum_d: "E" }]) };
    }
    if (where === "starts_with(referencia_cadastral, '0000002AB0000A')") {
      return { body: JSON.stringify([{ referencia_cadastral: "0000002AB0000A0007ZZ", num_cas: "B2", data_entrada: "2021-01-02T00:00:00.000", qualificaci_de_consum_d: "c" }]) };
    }
    if (where.includes("'9999999")) return { body: JSON.stringify([{ qualificaci_de_consum_d: "Z" }]) };
    return { body: "[]" };
  });
  server.on(/26_GCEE/, (url) => {
    const filter = url.searchParams.get("FILTER") ?? "";
    if (filter.includes(`<fes:Literal>${VAL_UNIT}</fes:Literal>`)) {
      return { body: JSON.stringify({ type: "FeatureCollection", features: [{ id: "CEEEdificios.77", properties: { ref_referencia: VAL_UNIT, cer_concalificacion: "D", validohasta: "2031-03-01" } }] }) };
    }
    if (filter.includes("BADFILTER")) return { body: "<ows:ExceptionReport><ows:Exception>bad filter</ows:Exception></ows:ExceptionReport>", contentType: "text/xml" };
    return { body: JSON.stringify({ type: "FeatureCollection", features: [] }) };
  });
});
afterAll(() => server.close());

const cee = () => createLiveEnergyCertificate({ cataloniaBaseUrl: server.url, valenciaBaseUrl: `${server.url}/26_GCEE` });

describe("live energy certificate registries", () => {
  it("Catalonia: the unit's newest certificate", async () => {
    expect(await cee().lookup(input(CAT_UNIT, facts("08")))).toMatchObject({
      kind: "found",
      data: { rating: "E", source: "registry", registry: "ICAEN (j6ii-t3w2)", certificate_id: "HK9X7Y", issued_on: "2019-05-10", scope: "unit" },
    });
  });

  it("Catalonia: falls back to a certificate of the building (parcel)", async () => {
    expect(await cee().lookup(input(CAT_BUILDING_ONLY, facts("17")))).toMatchObject({ kind: "found", data: { rating: "C", scope: "building" } });
  });

  it("Catalonia: nothing registered → not_found (the pipeline estimates)", async () => {
    expect(await cee().lookup(input("0000005AB0000A0001XX", facts("43")))).toMatchObject({ kind: "not_found" });
  });

  it("a letter outside A-G is a malformed answer, not a rating", async () => {
    expect(await cee().lookup(input("9999999AB0000A0001XX", facts("25")))).toMatchObject({ kind: "error", code: "malformed" });
  });

  it("Comunitat Valenciana: WFS filter by reference", async () => {
    expect(await cee().lookup(input(VAL_UNIT, facts("46")))).toMatchObject({
      kind: "found",
      data: { rating: "D", registry: "GVA GCEE WFS", certificate_id: "CEEEdificios.77", scope: "unit" },
    });
    expect(await cee().lookup(input("0000004AB0000A0001XX", facts("03")))).toMatchObject({ kind: "not_found" });
  });

  it("Comunitat Valenciana: an ExceptionReport is an error", async () => {
    expect(await cee().lookup(input("BADFILTER00000A0001X", facts("12")))).toMatchObject({ kind: "error", code: "wfs_exception" });
  });

  it("regions without a queryable registry answer not_found without a request", async () => {
    const before = server.requests.length;
    expect(await cee().lookup(input(CAT_UNIT, facts("28")))).toMatchObject({ kind: "not_found", summary: { reason: "no_registry_for_region" } });
    expect(server.requests.length).toBe(before);
  });
});

describe("live ITE", () => {
  const ite = () => createLiveIte({ cataloniaBaseUrl: server.url, now: () => new Date("2026-06-01") });

  it("not_required below the confirmed first-inspection age, without a request", async () => {
    const before = server.requests.length;
    expect(await ite().lookup(input(CAT_UNIT, facts("08", 2000)))).toMatchObject({ kind: "found", data: { status: "not_required" } });
    expect(await ite().lookup(input(CAT_UNIT, facts("28", 2010)))).toMatchObject({ kind: "found", data: { status: "not_required" } });
    expect(server.requests.length).toBe(before);
  });

  it("Catalonia: an IITE code in the registry is found; none is not_found", async () => {
    expect(await ite().lookup(input(CAT_UNIT, facts("08", 1950)))).toMatchObject({ kind: "found", data: { status: "found", details: { iite_code: "IITE-2019-123" } } });
    expect(await ite().lookup(input(CAT_BUILDING_ONLY, facts("08", 1950)))).toMatchObject({ kind: "not_found" });
  });

  it("elsewhere, or where the rule is unconfirmed: unsupported", async () => {
    expect(await ite().lookup(input(CAT_UNIT, facts("28", 1950)))).toMatchObject({ kind: "found", data: { status: "unsupported" } });
    expect(await ite().lookup(input(CAT_UNIT, facts("41", 2020)))).toMatchObject({ kind: "found", data: { status: "unsupported" } });
  });
});
