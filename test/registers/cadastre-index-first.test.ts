// Live creates ask the cadastre index before Catastro (#41): a reference whose municipality's copies
// hold it is answered with no Catastro request (a stand-in Catastro logs every request), its
// provider names the copy that answered and its summary the copies' dates; a unit the CAT copy does
// not hold (newer than the copy) and a parcel of a municipality never imported go to the live register.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLetters } from "@/lib/cadastral-reference";
import { localFile } from "@/lib/registers";
import { importCat } from "@/lib/registers/catastro-cat/import";
import { importInspire } from "@/lib/registers/catastro-inspire/import";
import type { ReplayServer } from "@/lib/enrichment/sources/testing/replay-server";
import type { TestApp } from "../support/app";
import { createProperty, replayedCatastro, type ReplayedCatastro } from "./support";

const DIR = path.join(process.cwd(), "lib/registers");
const INSPIRE = ["cadastralparcel", "building", "buildingpart", "address"].map((kind) =>
  localFile(path.join(DIR, `catastro-inspire/fixtures/28900.${kind}.gml`)),
);
const DNPRC = readFileSync(
  path.join(
    process.cwd(),
    "lib/enrichment/sources/cadastre/fixtures/json-dnprc-20char-single-2749704YJ0624N0001DI.pretty.json",
  ),
  "utf8",
);

let replayed: ReplayedCatastro;
let server: ReplayServer;
let t: TestApp;
let key: string;
beforeAll(async () => {
  replayed = await replayedCatastro(DNPRC);
  ({ server, t, key } = replayed);
  await importInspire(t.app.db, "28900", INSPIRE);
  await importCat(t.app.db, "28900", [localFile(path.join(DIR, "catastro-cat/fixtures/28900-sample.CAT"))]);
});
afterAll(() => replayed?.close());

const catastroCalls = () => server.requests.filter((u) => /Consulta_/.test(u.pathname)).length;

describe("the cadastre index first", () => {
  it("answers a unit the CAT copy holds without asking Catastro, from both copies", async () => {
    const before = catastroCalls();
    const property = await createProperty(t, key, "0847106VK4704F0002PR");
    expect(catastroCalls()).toBe(before);
    expect(property).toMatchObject({
      cadastral_reference: "0847106VK4704F0002PR",
      year_built: 1968,
      use: "residential",
      built_area_m2: 88,
      plot_area_m2: 512,
      postal_code: "28009",
      municipality: "Madrid",
      municipality_code: "28079",
      unit: { staircase: "1", floor: "01", door: "01" },
    });
    expect(property.location).toMatchObject({ latitude: expect.closeTo(40.41, 1), longitude: expect.closeTo(-3.7, 1) });
    expect(property.enrichment.cadastre).toMatchObject({ status: "completed", provider: "index:catastro-cat" });
  });

  it("answers a parcel from its INSPIRE building and CAT units, again without Catastro", async () => {
    const before = catastroCalls();
    const property = await createProperty(t, key, "0847106VK4704F");
    expect(catastroCalls()).toBe(before);
    // The use with the largest built area: the 210 m² basement store outweighs the two 92 and 88 m² flats.
    expect(property).toMatchObject({
      year_built: 1968,
      built_area_m2: 390,
      units_in_parcel: 3,
      use: "parking_storage",
    });
    expect(property.enrichment.cadastre.provider).toBe("index:catastro-inspire");
  });

  it("asks Catastro for a unit the copy does not hold, and for a municipality never imported", async () => {
    const before = catastroCalls();
    // The CAT copy left this unit out (its record's check letters were wrong): Catastro answers it.
    await createProperty(t, key, `0847107VK4704F0001${checkLetters("0847107VK4704F0001")}`);
    expect(catastroCalls()).toBeGreaterThan(before);
    const again = catastroCalls();
    await createProperty(t, key, "2749704YJ0624N0001DI");
    expect(catastroCalls()).toBeGreaterThan(again);
  });
});
