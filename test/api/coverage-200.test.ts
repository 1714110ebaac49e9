// GET /coverage → 200: the 19 communities and cities, each source's providers in lookup order,
// index datasets with their date and row count once imported, the foral territories unsupported,
// and the evidence each register's format rests on.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Coverage } from "@/lib/domain";
import { importCadastre, localFile } from "@/lib/registers";
import { createTestApp, get, newPartnerKey, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { importFixture } from "../registers/support";

const DIR = path.join(process.cwd(), "lib/registers");
const INSPIRE = ["cadastralparcel", "building", "buildingpart", "address"].map((kind) =>
  localFile(path.join(DIR, `catastro-inspire/fixtures/28900.${kind}.gml`)),
);

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
  key = (await newPartnerKey(t.app)).key;
});
afterAll(() => t.close());

async function fetchCoverage() {
  const res = await t.api.getCoverage(get("/coverage", { "X-API-Key": key }));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = Coverage.parse(await res.json());
  return Object.fromEntries(body.data.map((c) => [c.ccaa, c]));
}

describe("GET /coverage → 200", () => {
  it("lists every community and city once", async () => {
    expect(Object.keys(await fetchCoverage())).toHaveLength(19);
  });

  it("states the foral territories as outside the national cadastre", async () => {
    const all = await fetchCoverage();
    for (const name of ["País Vasco", "Comunidad Foral de Navarra"]) {
      expect(all[name]).toMatchObject({
        cadastre: { kind: "unsupported", providers: [] },
        energy_certificate: { kind: "unsupported" },
        ite: { kind: "unsupported" },
      });
      expect(all[name]!.note).toMatch(/foral cadastre/i);
      // Their own cadastres publish INSPIRE services too, but no format of theirs is confirmed (docs/cadastre-index.md).
      expect(all[name]!.note).toMatch(/neither Catastro's live services \(OVC\) nor the cadastre index/);
    }
  });

  const none = { dataset: null, as_of: null, stale: null, rows: null };
  const estimate = {
    provider: "estimate",
    kind: "estimate",
    ...none,
    format_evidence: null,
    citations: [],
    licence: null,
    attribution: null,
  };
  const whole = { partial: false, area: null };
  const ICAEN = { licence: "CC-BY-4.0", attribution: "Institut Català d'Energia (ICAEN), Generalitat de Catalunya" };
  const ARAGON = { licence: "CC-BY-4.0", attribution: "Gobierno de Aragón (Aragón Open Data)" };

  it("names the live registers and the estimate before any import, with the evidence of each format", async () => {
    const all = await fetchCoverage();
    const dictionary = expect.arrayContaining([expect.stringMatching(/dictionary\.json/)]);
    expect(all.Cataluña!.energy_certificate).toEqual({
      kind: "live",
      providers: [
        {
          provider: "icaen-socrata",
          kind: "live",
          ...none,
          format_evidence: "confirmed",
          citations: dictionary,
          ...ICAEN,
        },
        estimate,
      ],
      ...whole,
    });
    expect(all["Región de Murcia"]!).toMatchObject({
      cadastre: { kind: "live", providers: [{ provider: "catastro-ovc" }] },
      energy_certificate: { kind: "estimate" },
      ite: { kind: "unsupported", providers: [] },
    });
    expect(all["Comunidad de Madrid"]!.ite).toMatchObject({ kind: "rules", providers: [{ provider: "rules" }] });
  });

  it("adds an imported dataset, first, with its date and row count", async () => {
    await importFixture(t.app.db, "ara-gaodcore", "2026-10-30");
    await importFixture(t.app.db, "cat-icaen", "2026-11-01");
    const all = await fetchCoverage();
    const cited = expect.any(Array);
    // The index is asked first; the live view answers what it does not hold, so the source is live.
    expect(all.Aragón!.energy_certificate).toEqual({
      kind: "live",
      providers: [
        {
          provider: "index:ara-gaodcore",
          kind: "index",
          dataset: "ara-gaodcore",
          as_of: "2026-10-30",
          stale: false,
          rows: 5,
          format_evidence: "confirmed",
          citations: expect.any(Array),
          ...ARAGON,
        },
        {
          provider: "aragon-gaodcore",
          kind: "live",
          ...none,
          format_evidence: "confirmed",
          citations: cited,
          ...ARAGON,
        },
        estimate,
      ],
      ...whole,
    });
    expect(all.Aragón!.energy_certificate.providers[0]!.citations.join(" ")).toMatch(/ga-od-core-v2.*NBEM/);
    expect(all.Cataluña!.ite.providers.map((p) => p.provider)).toEqual(["index:cat-icaen", "rules", "icaen-socrata"]);
    // ICAEN's report codes are asked, but are no inspection register: the rules are the source.
    expect(all.Cataluña!.ite.kind).toBe("rules");
    expect(all.Cataluña!.note).toMatch(/No inspection register: .* else unsupported/);
    expect(all.Cataluña!.energy_certificate.kind).toBe("live");
  });

  it("says what part of its community a city's dataset covers", async () => {
    expect((await fetchCoverage())["Comunidad de Madrid"]!.note).toBeNull();
    await importFixture(t.app.db, "mad-ite", "2026-11-01");
    const madrid = (await fetchCoverage())["Comunidad de Madrid"]!;
    expect(madrid.ite.providers.map((p) => [p.provider, p.format_evidence])).toEqual([
      ["index:mad-ite", "unconfirmed"],
      ["rules", null],
    ]);
    expect(madrid.note).toBe("index:mad-ite: Madrid city only, matched by the building's street address.");
    // The city's register is the best ITE source there, and covers only the city.
    expect(madrid.ite).toMatchObject({
      kind: "index",
      partial: true,
      area: "Madrid city only, matched by the building's street address",
    });
  });

  it("marks an index copy whose publisher's date is older than REGISTER_STALE_DAYS (default 400) stale", async () => {
    await importFixture(t.app.db, "rio-larioja", "2024-01-31");
    const rioja = (await fetchCoverage())["La Rioja"]!.energy_certificate.providers[0]!;
    expect(rioja).toMatchObject({ provider: "index:rio-larioja", as_of: "2024-01-31", stale: true });
  });
  it("adds the cadastre index's copies to their community's cadastre, never to a foral one", async () => {
    await importCadastre(t.app.db, "catastro-inspire", INSPIRE, "28900");
    await importCadastre(t.app.db, "catastro-cat", [
      localFile(path.join(DIR, "catastro-cat/fixtures/28900-sample.CAT")),
    ]);
    const all = await fetchCoverage();
    const madrid = all["Comunidad de Madrid"]!;
    expect(madrid.cadastre.kind).toBe("live");
    expect(madrid.cadastre.providers).toMatchObject([
      { provider: "index:catastro-cat", kind: "index", dataset: "catastro-cat", as_of: "2026-03-15", rows: 10 },
      { provider: "index:catastro-inspire", kind: "index", dataset: "catastro-inspire", as_of: "2015-11-24" },
      { provider: "catastro-ovc", kind: "live" },
    ]);
    expect(madrid.cadastre.providers[0]).toMatchObject({
      format_evidence: "confirmed",
      attribution: "Dirección General del Catastro",
    });
    expect(madrid.note).toMatch(/index:catastro-cat: 1 municipality imported\./);
    expect(all["Región de Murcia"]!.cadastre.providers.map((p) => p.provider)).toEqual(["catastro-ovc"]);
    for (const name of ["País Vasco", "Comunidad Foral de Navarra"]) expect(all[name]!.cadastre.providers).toEqual([]);
  });
});
