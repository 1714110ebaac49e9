import { describe, expect, it } from "vitest";
import { indexedCadastre, indexedEnergyCertificate, indexedIte } from "./indexed";
import type { CadastreFacts, RegisterIndex, RegistryCertificate, SourceInput } from "./types";

const CERTIFICATE: RegistryCertificate = {
  rating: "C",
  emissionsRating: null,
  primaryEnergyKwhM2Year: null,
  emissionsKgCo2M2Year: null,
  issuedOn: "2020-01-01",
  validUntil: null,
  scope: "building",
  registry: "R",
  certificateId: null,
};
/** When the copy was imported, and the licence its register module states. */
const READ = { retrievedAt: "2026-11-02T03:30:00.000Z", licence: "CC-BY-4.0", attribution: "Generalitat Valenciana" };

const facts = (reference: string) => ({ reference, provinceCode: "46" }) as CadastreFacts;
const input = (reference: string, resolved = reference): SourceInput & { facts: CadastreFacts } => ({
  reference,
  mode: "live",
  attempt: 1,
  signal: new AbortController().signal,
  facts: facts(resolved),
});

/** A failed query as Drizzle throws it: its message quotes the statement and the parameters. */
const queryFailure = Object.assign(new Error("Failed query: select … params: 2749704YJ0624N,2749704YJ0624N0001"), {
  query: "select …",
  params: ["2749704YJ0624N", "2749704YJ0624N0001"],
  cause: Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
});

function fakeIndex(calls: unknown[], fail: false | Error = false): RegisterIndex {
  return {
    async cadastre(reference) {
      calls.push(reference);
      if (fail) throw fail;
      return reference === "0847106VK4704F0001OE"
        ? {
            facts: facts(reference),
            answeredBy: [
              { source: "catastro-cat", municipality: "28900", asOf: "2026-03-15" },
              { source: "catastro-inspire", municipality: "28900", asOf: "2015-11-24" },
            ],
          }
        : null;
    },
    async certificate(query) {
      calls.push(query);
      if (fail) throw fail;
      return query.unit === "2749704YJ0624N0001"
        ? { data: CERTIFICATE, dataset: "val-gva", asOf: "2026-11-01", sourceRow: 7, ...READ }
        : null;
    },
    async inspection(query) {
      calls.push(query);
      return query.parcel === "0625102DF3802F"
        ? { data: { status: "found", reference: "IITE-1" }, dataset: "cat-icaen", asOf: null, sourceRow: 3, ...READ }
        : null;
    },
  };
}
const live = {
  lookup: async () => ({ kind: "not_found", provider: "gva-wfs", summary: { registry: "live" } }) as const,
};

describe("index first", () => {
  it("answers from the index with index:<dataset>, the dataset, its date and the source row", async () => {
    const calls: unknown[] = [];
    const outcome = await indexedEnergyCertificate(fakeIndex(calls), live).lookup(input("2749704YJ0624N0001DI"));
    expect(outcome).toEqual({
      kind: "found",
      data: CERTIFICATE,
      provider: "index:val-gva",
      summary: {
        registry: "R",
        scope: "building",
        dataset: "val-gva",
        as_of: "2026-11-01",
        retrieved_at: READ.retrievedAt,
        licence: "CC-BY-4.0",
        attribution: "Generalitat Valenciana",
        source_row: 7,
      },
    });
    expect(calls).toEqual([{ parcel: "2749704YJ0624N", unit: "2749704YJ0624N0001" }]);
  });

  it("asks for the unit the cadastre resolved for a one-unit parcel", async () => {
    const calls: unknown[] = [];
    await indexedEnergyCertificate(fakeIndex(calls), live).lookup(input("2749704YJ0624N", "2749704YJ0624N0001DI"));
    expect(calls).toEqual([{ parcel: "2749704YJ0624N", unit: "2749704YJ0624N0001" }]);
  });

  it("falls through to the live registry when the index has nothing", async () => {
    expect(await indexedEnergyCertificate(fakeIndex([]), live).lookup(input("2749704YJ0624N0002OO"))).toMatchObject({
      provider: "gva-wfs",
    });
  });

  it("still answers from the live registry when the index fails, naming the failure", async () => {
    const failing = fakeIndex([], new Error("database unavailable"));
    expect(await indexedEnergyCertificate(failing, live).lookup(input("2749704YJ0624N0001DI"))).toEqual({
      kind: "not_found",
      provider: "gva-wfs",
      summary: { registry: "live", index_error: "database unavailable" },
    });
  });

  it("names a failed query by its SQLSTATE, never by its parameters", async () => {
    const source = indexedEnergyCertificate(fakeIndex([], queryFailure), live);
    const outcome = await source.lookup(input("2749704YJ0624N0001DI"));
    const summary = { registry: "live", index_error: "index query failed (SQLSTATE 57P01)" };
    expect(outcome).toEqual({ kind: "not_found", provider: "gva-wfs", summary });
  });

  it("finds inspections by parcel", async () => {
    const ite = indexedIte(fakeIndex([]), {
      lookup: async () => ({ kind: "found", data: { status: "unsupported" }, provider: "rules" }),
    });
    expect(await ite.lookup(input("0625102DF3802F0001QI"))).toMatchObject({
      kind: "found",
      provider: "index:cat-icaen",
      data: { status: "found", reference: "IITE-1" },
    });
    expect(await ite.lookup(input("2749704YJ0624N0001DI"))).toMatchObject({ provider: "rules" });
  });

  it("answers the cadastre from the copies that hold the reference, naming each with its date", async () => {
    const liveCadastre = {
      lookup: async () => ({ kind: "found", data: facts("2749704YJ0624N0001DI"), provider: "catastro-ovc" }) as const,
    };
    const cadastre = indexedCadastre(fakeIndex([]), liveCadastre);
    expect(await cadastre.lookup(input("0847106VK4704F0001OE"))).toEqual({
      kind: "found",
      data: facts("0847106VK4704F0001OE"),
      provider: "index:catastro-cat",
      summary: {
        units: 1,
        province: "46",
        municipality: undefined,
        copies: [
          { dataset: "catastro-cat", municipality: "28900", as_of: "2026-03-15" },
          { dataset: "catastro-inspire", municipality: "28900", as_of: "2015-11-24" },
        ],
      },
    });
    expect(await cadastre.lookup(input("2749704YJ0624N0001DI"))).toMatchObject({ provider: "catastro-ovc" });
    const failing = indexedCadastre(fakeIndex([], queryFailure), liveCadastre);
    expect(await failing.lookup(input("0847106VK4704F0001OE"))).toMatchObject({
      provider: "catastro-ovc",
      summary: { index_error: "index query failed (SQLSTATE 57P01)" },
    });
  });
});
