// The order of the live pipeline as the server wires it: the register index (the unit's own
// certificate, then the building's) → the live registry → the estimate, with `provider` naming
// which answered; test mode keeps the sandbox. Catastro and the GVA WFS are replayed locally
// (their answers constructed from the recorded and documented shapes, see the fixture READMEs).
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLetters } from "@/lib/cadastral-reference";
import { importDataset, localFile } from "@/lib/registers";
import { startReplayServer, type ReplayServer } from "@/lib/enrichment/sources/testing/replay-server";
import { createTestApp, newPartnerKey, type TestApp } from "../support/app";
import { createProperty, dataset, fileWith } from "./support";

const PARCEL = "2749704YJ0624N";
const ref = (unit: string) => PARCEL + unit + checkLetters(PARCEL + unit);
const sourceFixture = (folder: string, name: string) =>
  readFileSync(path.join(process.cwd(), "lib/enrichment/sources", folder, "fixtures", name), "utf8");
const DNPRC = JSON.parse(sourceFixture("cadastre", "json-dnprc-20char-single-2749704YJ0624N0001DI.pretty.json"));

let server: ReplayServer;
let t: TestApp;
let liveKey: string;
let testKey: string;

beforeAll(async () => {
  server = await startReplayServer();
  // Godelleta's recorded unit, answered as whichever unit of the parcel is asked for.
  server.on(/Consulta_DNPRC/, (url) => {
    const reference = url.searchParams.get("RefCat")!;
    const body = structuredClone(DNPRC);
    Object.assign(body.consulta_dnprcResult.bico.bi.idbi.rc, {
      car: reference.slice(14, 18),
      cc1: reference[18],
      cc2: reference[19],
    });
    return { body: JSON.stringify(body) };
  });
  server.on(/Consulta_CPMRC/, { status: 503, body: "unavailable", contentType: "text/plain" });
  // The live GVA registry holds a certificate of unit 0002 only.
  server.on(/26_GCEE/, (url) => {
    const filter = url.searchParams.get("FILTER") ?? "";
    if (filter.includes(`<fes:Literal>${ref("0002")}</fes:Literal>`))
      return { body: sourceFixture("registries", "wfs-ceeedificios-unit-2749704YJ0624N0001DI.geojson") };
    return { body: sourceFixture("registries", "wfs-ceeedificios-empty.geojson") };
  });
  server.on(/0801_GESIEE/, { body: sourceFixture("registries", "wfs-ceeedificios-empty.geojson") });
  t = await createTestApp({
    env: {
      CATASTRO_BASE_URL: server.url,
      CEE_VALENCIA_BASE_URL: `${server.url}/26_GCEE`,
      ITE_VALENCIA_BASE_URL: `${server.url}/0801_GESIEE`,
    },
  });
  liveKey = (await newPartnerKey(t.app, "live")).key;
  testKey = (await newPartnerKey(t.app, "test")).key;
  const file = await fileWith(
    "val-index.csv",
    `REFERENCIA_CATASTRAL,CONSUMO_EP_LETRA,EMISIONES_CO2_LETRA,VALIDO_HASTA,REGISTRO\n${ref("0001")},B,C,01/01/2033,IDX-1\n`,
  );
  await importDataset(t.app.db, dataset("val-gva"), [localFile(file)], { asOf: "2026-11-01" });
});
afterAll(async () => {
  await t?.close();
  await server?.close();
});

const create = (reference: string, key = liveKey) => createProperty(t, key, reference);

const wfsCalls = (unit: string) =>
  server.requests.filter((u) => u.pathname.includes("26_GCEE") && decodeURIComponent(u.search).includes(ref(unit)))
    .length;

describe("live certificate lookups", () => {
  it("take the unit's certificate from the index without asking the live registry", async () => {
    const property = await create(ref("0001"));
    expect(property.energy_certificate).toMatchObject({
      rating: "B",
      emissions_rating: "C",
      source: "registry",
      scope: "unit",
      certificate_id: "IDX-1",
      valid_until: "2033-01-01",
    });
    expect(property.enrichment.energy_certificate!.provider).toBe("index:val-gva");
    expect(wfsCalls("0001")).toBe(0);
    // Provenance: the copy's snapshot date (the publisher's, given at import), when it was read, its licence.
    expect(property.enrichment.energy_certificate).toMatchObject({
      dataset: "val-gva",
      as_of: "2026-11-01",
      retrieved_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      licence: "CC-BY-4.0",
    });
    expect(property.enrichment.cadastre).toMatchObject({ dataset: null, licence: expect.stringMatching(/Catastro/) });
    expect(property.attribution).toEqual(["Dirección General del Catastro", "Generalitat Valenciana"]);
  });

  it("ask the live registry when the index has nothing for the unit or its building", async () => {
    const property = await create(ref("0002"));
    expect(property.energy_certificate).toMatchObject({ source: "registry", registry: "GVA GCEE WFS" });
    expect(property.enrichment.energy_certificate!.provider).toBe("gva-wfs");
    expect(wfsCalls("0002")).toBe(1);
    // A live answer is as of the day it was asked.
    expect(property.enrichment.energy_certificate).toMatchObject({
      dataset: null,
      as_of: new Date().toISOString().slice(0, 10),
      licence: "CC-BY-4.0",
    });
  });

  it("estimate when neither has a certificate", async () => {
    const property = await create(ref("0003"));
    expect(property.energy_certificate).toMatchObject({ source: "estimated" });
    expect(property.enrichment.energy_certificate!.provider).toBe("estimate");
    expect(property.enrichment.energy_certificate).toMatchObject({ as_of: null, licence: null });
  });

  it("let the building's certificate in the index stand in for a unit", async () => {
    const file = await fileWith(
      "val-building.csv",
      `REFERENCIA_CATASTRAL,CONSUMO_EP_LETRA,VALIDO_HASTA\n${ref("0001")},B,01/01/2033\n${PARCEL},D,01/01/2030\n`,
    );
    await importDataset(t.app.db, dataset("val-gva"), [localFile(file)], { asOf: "2026-11-02" });
    const property = await create(ref("0005"));
    expect(property.energy_certificate).toMatchObject({ rating: "D", scope: "building" });
    expect(property.enrichment.energy_certificate!.provider).toBe("index:val-gva");
    expect(wfsCalls("0005")).toBe(0);
  });

  it("leave test mode to the sandbox", async () => {
    const property = await create(ref("0001"), testKey);
    expect(property.enrichment.energy_certificate!.provider).toBe("sandbox");
  });
});

describe("a certificate's validity, through the importers and the create", () => {
  it("only a registration date (Castilla y León): kept as registered_on; validity and expiry unknown", async () => {
    const file = await fileWith(
      "cyl.csv",
      `Nº de inscripción;Ref. Catastral;Calificación E.Primaria;Fecha de inscripción\nCYL-9;${ref("0006")};C;01/03/2022\n`,
    );
    await importDataset(t.app.db, dataset("cyl-jcyl"), [localFile(file)], { asOf: "2026-11-01" });
    const property = await create(ref("0006"));
    expect(property.energy_certificate).toMatchObject({
      rating: "C",
      issued_on: null,
      registered_on: "2022-03-01",
      valid_until: null,
      valid_until_source: "unknown",
      expired: null,
    });
    expect(property.enrichment.energy_certificate!.provider).toBe("index:cyl-jcyl");
  });

  it("an issue date (Castilla-La Mancha): 5 years for a G since 2021-06-02, 10 before; 29 February", async () => {
    const header = "ns1:CodigoComunidadAutonoma\tns1:Fecha\tns1:ReferenciaCatastral\tns1:Global73";
    const rows = [
      ["CLM-7", "02/06/2021", ref("0007"), "G"],
      ["CLM-8", "01/06/2021", ref("0008"), "G"],
      ["CLM-9", "29/02/2020", ref("0009"), "D"],
    ];
    const file = await fileWith("clm.tsv", [header, ...rows.map((r) => r.join("\t"))].join("\r\n"));
    await importDataset(t.app.db, dataset("clm-jccm"), [localFile(file)], { asOf: "2026-11-01" });
    expect((await create(ref("0007"))).energy_certificate).toMatchObject({
      rating: "G",
      issued_on: "2021-06-02",
      registered_on: null,
      valid_until: "2026-06-02",
      valid_until_source: "derived",
      expired: true,
    });
    expect((await create(ref("0008"))).energy_certificate).toMatchObject({
      valid_until: "2031-06-01",
      valid_until_source: "derived",
    });
    expect((await create(ref("0009"))).energy_certificate).toMatchObject({
      issued_on: "2020-02-29",
      valid_until: "2030-02-28",
      valid_until_source: "derived",
    });
  });

  it("the registry's own end (Valencia) is the registry's, whatever the letter", async () => {
    const file = await fileWith(
      "val-g.csv",
      `REFERENCIA_CATASTRAL,CONSUMO_EP_LETRA,VALIDO_HASTA\n${ref("0010")},G,01/01/2033\n`,
    );
    await importDataset(t.app.db, dataset("val-gva"), [localFile(file)], { asOf: "2026-11-03" });
    expect((await create(ref("0010"))).energy_certificate).toMatchObject({
      rating: "G",
      issued_on: null,
      valid_until: "2033-01-01",
      valid_until_source: "registry",
    });
  });
});
