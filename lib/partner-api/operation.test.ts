// A handler is typed by its contract entry both ways: its input by the request's schemas, its reply
// by the declared answers (an undeclared status, a body off its schema or a created item's answer
// without Location does not compile); an answer's example is typed by its schema too. tsc checks each `@ts-expect-error` below: one that no longer
// marks an error is itself an error.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  answer,
  createdAnswer,
  emptyAnswer,
  implement,
  problemAnswer,
  type Contract,
  type Handlers,
} from "./operation";
import { idParam, IdempotencyHeaders } from "./schemas";

const Thing = z.object({ id: z.string(), size: z.number() });
const base = {
  method: "GET",
  path: "/things",
  tag: "Meta",
  summary: "A thing",
  description: () => "A thing.",
  authenticated: false,
  write: false,
} as const;
const THING_ID = "0b0c2d4e-8f00-4a4a-9b9b-0123456789ab";
const responses = {
  "200": answer("The thing.", Thing, { id: THING_ID, size: 1 }),
  "201": createdAnswer("Made.", Thing, { id: THING_ID, size: 1 }),
  "204": emptyAnswer("Gone."),
  "404": problemAnswer("`not_found`", { detail: "No thing with this id for this API key's partner and mode." }),
};
// @ts-expect-error an example off its schema: `size` must be a number
answer("The thing.", Thing, { id: THING_ID, size: "big" });

const contract = [
  { ...base, id: "things", responses },
  { ...base, id: "undeclaredStatus", responses },
  { ...base, id: "bodyOffItsSchema", responses },
  { ...base, id: "createdWithoutLocation", responses },
  { ...base, id: "problemReturned", responses },
  { ...base, id: "typedQuery", request: { query: z.strictObject({ limit: z.number() }) }, responses },
  { ...base, id: "typedPath", request: { path: idParam("thing", THING_ID) }, responses },
  {
    ...base,
    id: "typedBody",
    method: "POST",
    request: { body: z.strictObject({ size: z.number() }), headers: IdempotencyHeaders },
    responses,
  },
] as const satisfies readonly Contract[];

const handlers: Handlers<typeof contract> = {
  async things({ query, body }) {
    const none: undefined = query ?? body;
    if (none) return { status: 204 };
    return { status: 201, body: { id: "a", size: 1 }, headers: { Location: "/things/a" } };
  },
  // @ts-expect-error 202 is not one of the declared statuses
  async undeclaredStatus() {
    return { status: 202, body: { id: "a", size: 1 } };
  },
  // @ts-expect-error `size` must be a number
  async bodyOffItsSchema() {
    return { status: 200, body: { id: "a", size: "big" } };
  },
  // @ts-expect-error a created item's answer carries its Location
  async createdWithoutLocation() {
    return { status: 201, body: { id: "a", size: 1 } };
  },
  // @ts-expect-error a problem is thrown as a DomainError, never returned
  async problemReturned() {
    return { status: 404, body: { id: "a", size: 1 } };
  },
  async typedQuery({ query }) {
    // @ts-expect-error the query is typed by its schema: `limit` is a number
    const limit: string = query.limit;
    return { status: 200, body: { id: limit, size: query.limit } };
  },
  async typedPath({ path }) {
    // A path that cannot name a thing never reaches the handler (404): the id is a string.
    const id: string = path.id;
    // @ts-expect-error only the declared parameters
    return { status: 200, body: { id: path.name, size: id.length } };
  },
  async typedBody({ body, headers }) {
    const key: string | undefined = headers["Idempotency-Key"];
    // @ts-expect-error the body is typed by its schema: `size` is a number
    const size: string = body.size;
    return { status: 200, body: { id: key ?? size, size: body.size } };
  },
};

describe("the contract's request schemas", () => {
  it("parse a path id as the handlers get it: decoded and lower-cased; else the 404 of an unknown id", () => {
    const path = idParam("thing", THING_ID);
    expect(path.parse({ id: "0B0C2D4E-8F00-4A4A-9B9B-0123456789AB" })).toEqual({
      id: "0b0c2d4e-8f00-4a4a-9b9b-0123456789ab",
    });
    expect(path.parse({ id: "0b0c2d4e-8f00-4a4a-9b9b-0123456789a%62" }).id).toBe(
      "0b0c2d4e-8f00-4a4a-9b9b-0123456789ab",
    );
    for (const id of ["42", "%E0%A4%A", ""])
      expect(path.safeParse({ id }).error?.issues.map((i) => i.message)).toEqual([
        "No thing with this id for this API key's partner and mode.",
      ]);
  });

  it("join each entry with its handler, in the contract's order", () => {
    const operations = implement(contract, handlers);
    expect(operations.map((op) => op.id)).toEqual(contract.map((entry) => entry.id));
    expect(operations.every((op) => typeof op.handle === "function")).toBe(true);
  });
});
