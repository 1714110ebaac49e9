// The portal's property search on a real database: any case or accent finds a municipality or an
// address, and a reference typed with spaces, hyphens or in lower case finds it as a create would.
// Rows are constructed: real references (docs/cadastral-reference.md), made-up addresses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "@/lib/db";
import { createPartner } from "@/lib/partners";
import { listProperties } from "@/lib/properties";
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
  await testDb.database.db
    .insert(schema.properties)
    .values([
      row("2749704YJ0624N0001DI", "CL LARIOS 5 Pl:02", "Málaga"),
      row("9398516VK3799G0001AY", "RÚA REAL 12", "A Coruña"),
      row("6344205CF7664S0001GP", "CL MAYOR 1", "Valencia"),
    ]);
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
