// A city register kept by street address meets the property through its Catastro address: a live
// create of a Madrid parcel (Catastro's recorded answer for 9398516VK3799G, "CL SAN RESTITUTO 72")
// takes its ITE from the imported Madrid city dataset, filed as "Calle de San Restituto, 72".
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { newPartnerKey, type TestApp } from "../support/app";
import { createProperty, importFixture, replayedCatastro, type ReplayedCatastro } from "./support";

const MADRID = readFileSync(
  path.join(process.cwd(), "lib/enrichment/sources/cadastre/fixtures/json-ovc-dnprc-urbana-9398516VK3799G.json"),
  "utf8",
);

let replayed: ReplayedCatastro;
let t: TestApp;
let key: string;
beforeAll(async () => {
  replayed = await replayedCatastro(MADRID);
  ({ t, key } = replayed);
});
afterAll(() => replayed?.close());

const create = (reference: string, as = key) => createProperty(t, as, reference);

it("without the city's dataset the ITE comes from the rules", async () => {
  expect((await create("9398516VK3799G")).enrichment.ite!.provider).toBe("rules");
});

it("with it, the inspection filed under the same street and number", async () => {
  await importFixture(t.app.db, "mad-ite");
  // Another partner's registration of the same parcel: a new property, enriched again.
  const property = await create("9398516VK3799G", (await newPartnerKey(t.app, "live")).key);
  expect(property.enrichment.ite!.provider).toBe("index:mad-ite");
  expect(property.ite).toMatchObject({
    status: "found",
    result: "unfavourable",
    inspected_on: "2023-06-20",
    registry: "Ayuntamiento de Madrid ITE",
  });
});
