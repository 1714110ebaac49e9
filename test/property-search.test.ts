// The portal's property search on a real database: any case or accent finds a municipality or an
// address, and a reference typed with spaces, hyphens or in lower case finds it as a create would.
// The Properties CSV holds what the same filters select, every page of it.
// Rows are constructed: real references (docs/cadastral-reference.md), made-up addresses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "@/lib/db";
import { createPartner } from "@/lib/partners";
import { parse } from "csv-parse/sync";
import { listProperties, PROPERTY_CSV_HEADER, propertiesCsv } from "@/lib/properties";
import type { Scope } from "@/lib/domain";
import { createTestDatabase, type TestDatabase } from "./support/database";

let testDb: TestDatabase;
let scope: Scope;
beforeAll(async () => {
  testDb = await createTestDatabase();
  const partner = await createPartner(testDb.database.db, "Search partner");
  scope = { partnerId: partner.id, mode: "test" };
  const row = (cadastralReference: string, address: string, municipality: string) => ({
    partnerId: partner.id,
    mode: "test" as const,
    cadastralReference,
    address,
    municipality,
  });
  // One statement each, oldest first: each gets its own created_at, so "newest first" is one order.
  for (const r of [
    row("2749704YJ0624N0001DI", "CL LARIOS 5 Pl:02", "Málaga"),
    row("9398516VK3799G0001AY", "RÚA REAL 12", "A Coruña"),
    row("6344205CF7664S0001GP", '=HYPERLINK("x")', "Valencia"),
  ])
    await testDb.database.db.insert(schema.properties).values(r);
});
afterAll(() => testDb.drop());

const found = async (search: string) =>
  (await listProperties(testDb.database.db, scope, { limit: 10, search }))!.data.map((p) => p.cadastral_reference);

describe("property search", () => {
  it("finds a municipality whatever its case and accents", async () => {
    for (const q of ["Málaga", "malaga", "MALAGA", "mÁlAgA"]) expect(await found(q)).toEqual(["2749704YJ0624N0001DI"]);
    for (const q of ["coruna", "A CORUÑA", "coruña"]) expect(await found(q)).toEqual(["9398516VK3799G0001AY"]);
  });

  it("finds an address whatever its accents", async () => {
    expect(await found("rua real")).toEqual(["9398516VK3799G0001AY"]);
  });

  it("finds a reference typed with spaces, hyphens and lower case", async () => {
    expect(await found(" 2749704 yj0624n-0001 ")).toEqual(["2749704YJ0624N0001DI"]);
    expect(await found("9398516-VK3799G")).toEqual(["9398516VK3799G0001AY"]);
  });

  it("takes the wildcards of the search literally and finds nothing that does not match", async () => {
    expect(await found("%")).toEqual([]);
    expect(await found("sevilla")).toEqual([]);
  });
});

describe("Properties CSV", () => {
  const csvOf = async (search?: string) => {
    const bytes = await new Response(propertiesCsv(testDb.database.db, scope, { search }, 2)).arrayBuffer();
    // ignoreBOM keeps the BOM in the text (a decoder drops it by default).
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith("\uFEFF")).toBe(true);
    return parse(text.slice(1)) as string[][];
  };

  it("writes every page of the list, newest first, with accents kept and formulas neutralised", async () => {
    const [header, ...rows] = await csvOf();
    expect(header).toEqual(PROPERTY_CSV_HEADER);
    const at = (name: string) => PROPERTY_CSV_HEADER.indexOf(name);
    expect(rows.map((r) => [r[at("cadastral_reference")], r[at("municipality")], r[at("address")]])).toEqual([
      ["6344205CF7664S0001GP", "Valencia", '\'=HYPERLINK("x")'],
      ["9398516VK3799G0001AY", "A Coruña", "RÚA REAL 12"],
      ["2749704YJ0624N0001DI", "Málaga", "CL LARIOS 5 Pl:02"],
    ]);
  });

  it("applies the list's search", async () => {
    const [, ...rows] = await csvOf("coruna");
    expect(rows.map((r) => r[PROPERTY_CSV_HEADER.indexOf("cadastral_reference")])).toEqual(["9398516VK3799G0001AY"]);
  });
});
