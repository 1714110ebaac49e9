import { describe, expect, it } from "vitest";
import { z } from "zod";
import { inSchemaOrder } from "./member-order";

const Inner = z.object({ rating: z.string(), source: z.string(), basis: z.string().optional() });
const Outer = z.object({
  id: z.string(),
  certificate: Inner.nullable(),
  history: z.array(Inner),
  counts: z.object({ total: z.number(), done: z.number() }).default({ total: 0, done: 0 }),
});

describe("inSchemaOrder", () => {
  it("puts nested objects' members (through nullable, optional, default and arrays) in the schema's order", () => {
    // jsonb's order: shorter keys first.
    const fromJsonb = {
      id: "p",
      counts: { done: 1, total: 2 },
      history: [{ basis: "b", rating: "A", source: "s" }],
      certificate: { basis: "b", rating: "C", source: "s" },
    };
    const ordered = inSchemaOrder(Outer, fromJsonb);
    expect(JSON.stringify(ordered)).toBe(
      JSON.stringify({
        id: "p",
        certificate: { rating: "C", source: "s", basis: "b" },
        history: [{ rating: "A", source: "s", basis: "b" }],
        counts: { total: 2, done: 1 },
      }),
    );
    expect(ordered).toEqual(fromJsonb);
  });

  it("keeps null, absent and unknown members: members the schema does not name come last, nothing is dropped", () => {
    expect(inSchemaOrder(Outer, { extra: 1, certificate: null, id: "p" })).toStrictEqual({
      id: "p",
      certificate: null,
      extra: 1,
    });
    expect(Object.keys(inSchemaOrder(Outer, { extra: 1, certificate: null, id: "p" }))).toEqual([
      "id",
      "certificate",
      "extra",
    ]);
  });
});
