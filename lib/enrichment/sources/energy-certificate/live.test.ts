// The registry answers replayed here are CONSTRUCTED from the documented field names (see
// ../registries/fixtures/README.md), not captured.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startReplayServer, WAF_PAGE, type ReplayServer } from "../testing/replay-server";
import type { CataloniaRow } from "@/lib/registers/icaen/client";
import { liveRegisters } from "@/lib/registers";
import type { CadastreFacts } from "../types";
import { createLiveEnergyCertificate } from "./live";

const fixture = (name: string) => readFileSync(path.join(__dirname, "../registries/fixtures", name), "utf8");

const PARCEL_CAT = "0625102DF3802F";
const UNIT_CAT = "0625102DF3802F0003EP"; // two certificates of its own
const UNIT_CAT_NONE = "0625102DF3802F0005TS"; // none of its own: the building's
const UNIT_CAT_NO_LETTER = "0625102DF3802F0011IG";
const PARCEL_CAT_UNITS_ONLY = "0625102DF3802G"; // only certificates of its units
const UNIT_VAL = "2749704YJ0624N0001DI"; // Godelleta
const PARCEL_VAL = "1416301YJ2711N";
const UNIT_VAL_NONE = "1416301YJ2711N0005EO";
const PARCEL_ARA = "7541901XM8174S";

const facts = (reference: string, provinceCode: string): CadastreFacts => ({
  reference,
  kind: "urban",
  address: null,
  municipality: null,
  province: null,
  provinceCode,
  municipalityCode: null,
  use: "Residencial",
  surfaceM2: 80,
  yearBuilt: 1958,
});
const input = (reference: string, f: CadastreFacts, signal = new AbortController().signal) => ({
  reference,
  mode: "live" as const,
  attempt: 1,
  signal,
  facts: f,
});

/** What the Catalan dataset holds for the parcels asked about below. */
function cataloniaRegistry(): CataloniaRow[] {
  const parcel = JSON.parse(fixture(`socrata-j6ii-t3w2-parcel-${PARCEL_CAT}.json`)) as CataloniaRow[];
  const unit = parcel.filter((r) => r.referencia_cadastral === UNIT_CAT);
  return [
    ...parcel,
    // A unit whose newest certificate has no letter.
    ...unit.map((r, i) => ({
      ...r,
      referencia_cadastral: UNIT_CAT_NO_LETTER,
      ...(i === 0 ? { qualificaci_de_consum_d: undefined } : {}),
    })),
    // A parcel with certificates of its units only.
    ...parcel
      .filter((r) => r.referencia_cadastral!.length === 20)
      .map((r) => ({ ...r, referencia_cadastral: PARCEL_CAT_UNITS_ONLY + r.referencia_cadastral!.slice(14) })),
  ];
}

const SOCRATA = /\/resource\/j6ii-t3w2\.json/;
const WFS = /\/26_GCEE\?/;
let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
  const registry = cataloniaRegistry();
  server.on(SOCRATA, (url) => {
    const q = url.searchParams;
    const reference = q.get("referencia_cadastral");
    // Only the one query the client should send is understood: rows of exactly one reference.
    if (q.get("$order") !== "data_entrada DESC" || !reference || q.has("$where"))
      return { status: 400, body: fixture("socrata-error-no-such-column.json") };
    if (reference === "0000000HTML000") return { body: WAF_PAGE, contentType: "text/html" };
    if (reference === "0000000BROKEN0") return { body: '[{"num_cas": ' };
    if (reference === "0000000NOTARR0") return { body: '{"rows": []}' };
    if (reference === "0000000ERR5000") return { status: 500, body: "upstream error", contentType: "text/plain" };
    if (reference === "0000000HANG000") return { hang: true };
    if (reference === "0000000SLOW000") return { body: "[]", delayMs: 50 };
    const rows = registry
      .filter((r) => r.referencia_cadastral === reference)
      .sort((a, b) => b.data_entrada!.localeCompare(a.data_entrada!))
      .slice(0, Number(q.get("$limit")));
    return { body: JSON.stringify(rows) };
  });
  // GA_OD_Core as its code reads `like` (contains, any case) and `filters` (equals), sorted and cut.
  const aragon = JSON.parse(fixture(`gaodcore-237-parcel-${PARCEL_ARA}.json`)) as Record<string, string>[];
  server.on(/\/GA_OD_Core\/download\?/, (url) => {
    const q = url.searchParams;
    if (q.get("resource_id") !== "237" || q.get("formato") !== "json" || q.get("sort") !== "fec_emision desc")
      return { status: 400, body: '{"detail": "bad request"}' };
    const like = q.has("like") ? (JSON.parse(q.get("like")!) as { refcatastral: string }).refcatastral : null;
    const equals = q.has("filters") ? (JSON.parse(q.get("filters")!) as { refcatastral: string }).refcatastral : null;
    if (equals === "0000000BROKEN0") return { body: '{"detail": "view 237"}' };
    const rows = aragon
      .filter((r) =>
        like !== null ? r.refcatastral!.toUpperCase().includes(like.toUpperCase()) : r.refcatastral === equals,
      )
      .sort((a, b) => b.fec_emision!.localeCompare(a.fec_emision!))
      .slice(0, Number(q.get("limit")));
    return { body: JSON.stringify(rows) };
  });
  server.on(WFS, (url) => {
    const q = url.searchParams;
    const filter = q.get("FILTER") ?? "";
    if (
      q.get("typeNames") !== "ms:CEEEdificios" ||
      q.get("request") !== "GetFeature" ||
      !filter.includes("<fes:PropertyIsEqualTo>")
    ) {
      return { body: fixture("wfs-exceptionreport-invalid-filter.xml"), contentType: "text/xml" };
    }
    const equals = (property: string, value: string) =>
      filter.includes(`<fes:ValueReference>${property}</fes:ValueReference><fes:Literal>${value}</fes:Literal>`);
    if (equals("ref_referencia", UNIT_VAL)) return { body: fixture(`wfs-ceeedificios-unit-${UNIT_VAL}.geojson`) };
    if (equals("ref_parcela", PARCEL_VAL)) return { body: fixture(`wfs-ceeedificios-parcel-${PARCEL_VAL}.geojson`) };
    if (equals("ref_parcela", "1416301YJ2711P")) {
      const body = JSON.parse(fixture(`wfs-ceeedificios-parcel-${PARCEL_VAL}.geojson`));
      body.features = body.features.filter(
        (f: { properties: { ref_referencia: string } }) => f.properties.ref_referencia.length === 20,
      );
      return { body: JSON.stringify(body) };
    }
    if (equals("ref_parcela", "0000000XCEPT00"))
      return { body: fixture("wfs-exceptionreport-invalid-filter.xml"), contentType: "text/xml; subtype=gml/3.2.1" };
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
const ICAEN_READ = read("Institut Català d'Energia (ICAEN), Generalitat de Catalunya");
const GVA_READ = read("Generalitat Valenciana");
const ARAGON_READ = read("Gobierno de Aragón (Aragón Open Data)");

/** The region table's routes (lib/registers), every register asked at the replay server. */
const cee = (options: Partial<Parameters<typeof createLiveEnergyCertificate>[0]> = {}) =>
  createLiveEnergyCertificate({
    routes: liveRegisters({
      CEE_CATALONIA_BASE_URL: server.url,
      CEE_VALENCIA_BASE_URL: `${server.url}/26_GCEE`,
      CEE_ARAGON_BASE_URL: server.url,
    }).energyCertificate,
    ...options,
  });

describe("Catalonia (ICAEN, Socrata j6ii-t3w2)", () => {
  it("the unit's newest certificate, asked by referencia_cadastral", async () => {
    expect(await cee().lookup(input(UNIT_CAT, facts(UNIT_CAT, "08")))).toEqual({
      kind: "found",
      // The row's letters and figures: energia_prim_ria_no_renovable "214.61", emissions_de_co2 "45.09".
      data: {
        rating: "E",
        emissionsRating: "E",
        primaryEnergyKwhM2Year: 214.61,
        emissionsKgCo2M2Year: 45.09,
        // data_entrada is the registration ("Data d'inscripció al registre"): no issue date.
        issuedOn: null,
        registeredOn: "2023-03-14",
        validUntil: null,
        scope: "unit",
        registry: "ICAEN (j6ii-t3w2)",
        certificateId: "HT2V7Q9K4M",
      },
      provider: "icaen-socrata",
      summary: { registry: "ICAEN (j6ii-t3w2)", scope: "unit", ...ICAEN_READ },
    });
    const request = server.requests.findLast((u) => u.searchParams.get("referencia_cadastral") === UNIT_CAT)!;
    expect(Object.fromEntries(request.searchParams)).toEqual({
      referencia_cadastral: UNIT_CAT,
      $limit: "5",
      $order: "data_entrada DESC",
    });
  });

  it("without one of its own, the building's certificate (registered under the 14-character parcel)", async () => {
    const before = server.requests.length;
    expect(await cee().lookup(input(UNIT_CAT_NONE, facts(UNIT_CAT_NONE, "08")))).toMatchObject({
      kind: "found",
      data: { rating: "E", certificateId: "B7M2X9QF3D", issuedOn: null, registeredOn: "2016-09-20", scope: "building" },
    });
    expect(server.requests.slice(before).map((u) => u.searchParams.get("referencia_cadastral"))).toEqual([
      UNIT_CAT_NONE,
      PARCEL_CAT,
    ]);
  });

  it("a 14-character parcel of several units: only the building's certificate is asked for", async () => {
    const before = server.requests.length;
    expect(await cee().lookup(input(PARCEL_CAT, facts(PARCEL_CAT, "17")))).toMatchObject({
      kind: "found",
      data: { scope: "building", rating: "E" },
    });
    expect(server.requests.slice(before).map((u) => u.searchParams.get("referencia_cadastral"))).toEqual([PARCEL_CAT]);
  });

  it("a 14-character parcel the cadastre resolved to one unit: that unit's certificate", async () => {
    expect(await cee().lookup(input(PARCEL_CAT, facts(UNIT_CAT, "08")))).toMatchObject({
      kind: "found",
      data: { scope: "unit", certificateId: "HT2V7Q9K4M" },
    });
  });

  it("another unit's certificate is not this property's: not_found", async () => {
    expect(await cee().lookup(input(PARCEL_CAT_UNITS_ONLY, facts(PARCEL_CAT_UNITS_ONLY, "25")))).toEqual({
      kind: "not_found",
      provider: "icaen-socrata",
      summary: { registry: "ICAEN (j6ii-t3w2)" },
    });
    expect(
      await cee().lookup(input(`${PARCEL_CAT_UNITS_ONLY}0005TS`, facts(`${PARCEL_CAT_UNITS_ONLY}0005TS`, "25"))),
    ).toMatchObject({ kind: "not_found" });
  });

  it("a record without a valid letter is skipped", async () => {
    expect(await cee().lookup(input(UNIT_CAT_NO_LETTER, facts(UNIT_CAT_NO_LETTER, "08")))).toMatchObject({
      kind: "found",
      data: { rating: "F", certificateId: "F83RW1ZK20", registeredOn: "2014-07-02", scope: "unit" },
    });
  });

  it("nothing registered → not_found (the pipeline estimates)", async () => {
    expect(await cee().lookup(input("9999999DF3802F0001XX", facts("9999999DF3802F0001XX", "43")))).toEqual({
      kind: "not_found",
      provider: "icaen-socrata",
      summary: { registry: "ICAEN (j6ii-t3w2)" },
    });
  });

  it("classifies failures", async () => {
    const c = cee();
    const ask = (parcel: string) => c.lookup(input(parcel, facts(parcel, "08")));
    expect(await ask("0000000HTML000")).toMatchObject({ kind: "error", code: "upstream_html" });
    expect(await ask("0000000BROKEN0")).toMatchObject({ kind: "error", code: "malformed" });
    expect(await ask("0000000NOTARR0")).toMatchObject({ kind: "error", code: "malformed" });
    expect(await ask("0000000ERR5000")).toMatchObject({ kind: "error", code: "upstream_status_500" });
    expect(await cee({ timeoutMs: 150 }).lookup(input("0000000HANG000", facts("0000000HANG000", "08")))).toMatchObject({
      kind: "error",
      code: "timeout",
    });
  });

  it("caches answers and coalesces concurrent lookups", async () => {
    const c = cee();
    const asked = () => server.count(/referencia_cadastral=0000000SLOW000/);
    const before = asked();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => c.lookup(input("0000000SLOW000", facts("0000000SLOW000", "08")))),
    );
    expect(outcomes.every((o) => o.kind === "not_found")).toBe(true);
    expect(await c.lookup(input("0000000SLOW000", facts("0000000SLOW000", "08")))).toMatchObject({
      kind: "not_found",
      summary: { cached: true },
    });
    expect(asked() - before).toBe(1);
  });
});

describe("Comunitat Valenciana (GVA GCEE WFS)", () => {
  it("the unit's certificate, by an FES filter on ref_referencia", async () => {
    expect(await cee().lookup(input(UNIT_VAL, facts(UNIT_VAL, "46")))).toEqual({
      kind: "found",
      // Comma decimals in the layer: cer_contotal "172,35", cer_emitotal "38,91"; no issue date.
      data: {
        rating: "E",
        emissionsRating: "E",
        primaryEnergyKwhM2Year: 172.35,
        emissionsKgCo2M2Year: 38.91,
        issuedOn: null,
        registeredOn: null,
        validUntil: "2029-06-12",
        scope: "unit",
        registry: "GVA GCEE WFS",
        certificateId: "E2019VS012374",
      },
      provider: "gva-wfs",
      summary: { registry: "GVA GCEE WFS", scope: "unit", ...GVA_READ },
    });
    const request = server.requests.findLast((u) => (u.searchParams.get("FILTER") ?? "").includes(UNIT_VAL))!;
    expect(request.searchParams.get("service")).toBe("WFS");
    expect(request.searchParams.get("outputFormat")).toBe("application/json; subtype=geojson");
  });

  it("then the building's certificate, by ref_parcela", async () => {
    expect(await cee().lookup(input(UNIT_VAL_NONE, facts(UNIT_VAL_NONE, "46")))).toMatchObject({
      kind: "found",
      data: { rating: "C", certificateId: "E2017VS020911", validUntil: "2027-10-30", scope: "building" },
    });
  });

  it("only other units' certificates, or none: not_found", async () => {
    expect(await cee().lookup(input("1416301YJ2711P", facts("1416301YJ2711P", "03")))).toEqual({
      kind: "not_found",
      provider: "gva-wfs",
      summary: { registry: "GVA GCEE WFS" },
    });
    expect(await cee().lookup(input("0000000XX0000X", facts("0000000XX0000X", "12")))).toEqual({
      kind: "not_found",
      provider: "gva-wfs",
      summary: { registry: "GVA GCEE WFS" },
    });
  });

  it("an ExceptionReport is an error", async () => {
    expect(await cee().lookup(input("0000000XCEPT00", facts("0000000XCEPT00", "12")))).toMatchObject({
      kind: "error",
      code: "wfs_exception",
      message: expect.stringContaining("Invalid or Unsupported FILTER"),
    });
  });
});

describe("Aragón (GA_OD_Core view 237)", () => {
  const ask = (reference: string) => cee().lookup(input(reference, facts(reference, "50")));
  const sent = (from: number) =>
    server.requests
      .slice(from)
      .filter((u) => u.pathname === "/GA_OD_Core/download")
      .map((u) => Object.fromEntries(u.searchParams));

  it("the unit's newest certificate, by `like` on its first 18 characters; figures with units; expiry", async () => {
    const before = server.requests.length;
    expect(await ask(`${PARCEL_ARA}0001SQ`)).toEqual({
      kind: "found",
      data: {
        rating: "E",
        emissionsRating: "E",
        primaryEnergyKwhM2Year: 201.4,
        emissionsKgCo2M2Year: 44.1,
        issuedOn: "2019-05-10",
        registeredOn: null,
        validUntil: "2029-05-10",
        scope: "unit",
        registry: "Gobierno de Aragón (GA_OD_Core 237)",
        certificateId: "ARA-0001",
      },
      provider: "aragon-gaodcore",
      summary: { registry: "Gobierno de Aragón (GA_OD_Core 237)", scope: "unit", ...ARAGON_READ },
    });
    expect(sent(before)).toEqual([
      {
        resource_id: "237",
        formato: "json",
        like: `{"refcatastral":"${PARCEL_ARA}0001"}`,
        sort: "fec_emision desc",
        limit: "5",
      },
    ]);
  });

  it("a unit named with another in one field", async () => {
    expect(await ask(`${PARCEL_ARA}0003FE`)).toMatchObject({
      kind: "found",
      data: { rating: "D", certificateId: "ARA-0003", scope: "unit" },
    });
  });

  it("without one of its own, the building's, by `filters` on the bare parcel", async () => {
    const before = server.requests.length;
    expect(await ask(`${PARCEL_ARA}0009BO`)).toMatchObject({
      kind: "found",
      data: { rating: "E", certificateId: "ARA-0004", scope: "building" },
    });
    expect(sent(before).map((q) => q.like ?? q.filters)).toEqual([
      `{"refcatastral":"${PARCEL_ARA}0009"}`,
      `{"refcatastral":"${PARCEL_ARA}"}`,
    ]);
  });

  it("a unit whose only record has no A-G letter gets the building's; a parcel with nothing is not_found", async () => {
    expect(await ask(`${PARCEL_ARA}0004GR`)).toMatchObject({
      kind: "found",
      data: { scope: "building", certificateId: "ARA-0004" },
    });
    expect(await cee().lookup(input("7541901XM8174T0001SP", facts("7541901XM8174T0001SP", "22")))).toEqual({
      kind: "not_found",
      provider: "aragon-gaodcore",
      summary: { registry: "Gobierno de Aragón (GA_OD_Core 237)" },
    });
  });

  it("an answer that is not rows is an error", async () => {
    expect(await ask("0000000BROKEN0")).toMatchObject({ kind: "error", code: "malformed" });
  });
});

describe("regions without a registry queryable by reference", () => {
  it("answer not_found at once, without a request", async () => {
    const before = server.requests.length;
    for (const province of ["28", "41", "48", "07", "39"]) {
      expect(await cee().lookup(input(UNIT_CAT, facts(UNIT_CAT, province)))).toEqual({
        kind: "not_found",
        provider: "estimate",
        summary: { reason: "no_registry_for_region", province },
      });
    }
    expect(server.requests.length).toBe(before);
  });
});
