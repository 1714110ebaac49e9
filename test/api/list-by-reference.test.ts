import { describe, expect, it } from "vitest";
import { newPartnerKey, get, post, useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
let key: string;
useTestApp({ sources: fakeSources() }, (ctx) => ({ t, key } = ctx));

const list = async (query: string, k = key) => {
  const res = await t.api.listProperties(get(`/properties?${query}`, { "X-API-Key": k }));
  expect(res.status).toBe(200);
  return (await res.json()) as { data: { property_id: string; cadastral_reference: string }[]; has_more: boolean };
};

describe("GET /properties?cadastral_reference=", () => {
  it("finds the property of a reference, written as loosely as on create; none for an unknown one", async () => {
    const created = await (
      await t.api.createProperty(
        post("/properties", { cadastral_reference: "2749704YJ0624N0001DI" }, { "X-API-Key": key }),
      )
    ).json();
    await t.api.createProperty(post("/properties", { cadastral_reference: "9872023VH5797S" }, { "X-API-Key": key }));
    for (const written of ["2749704YJ0624N0001DI", " 2749704-yj0624n 0001di ", "2749704YJ0624N0001DI".toLowerCase()]) {
      const page = await list(`cadastral_reference=${encodeURIComponent(written)}`);
      expect(page).toEqual({
        data: [expect.objectContaining({ property_id: created.property_id })],
        has_more: false,
        next_starting_after: null,
      });
    }
    expect((await list("cadastral_reference=9872023VH5797S0001WX")).data).toEqual([]);
    expect((await list("cadastral_reference=not-a-reference")).data).toEqual([]);
  });

  it("another partner, or the other mode, finds nothing", async () => {
    const other = await newPartnerKey(t.app);
    expect((await list("cadastral_reference=2749704YJ0624N0001DI", other.key)).data).toEqual([]);
  });

  it("an overlong value is a 422 on the parameter", async () => {
    const res = await t.api.listProperties(
      get(`/properties?cadastral_reference=${"x".repeat(101)}`, { "X-API-Key": key }),
    );
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: { parameter: string }[] }).errors[0]!.parameter).toBe(
      "cadastral_reference",
    );
  });
});
