// A handler's reply is typed by its operation's declared answers: an undeclared status, a body off
// its schema or a created item's answer without Location does not compile (tsc checks each
// `@ts-expect-error` below: one that no longer marks an error is itself an error). The flags are
// written in each entry, as in the table: they choose the handler's context.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answer, createdAnswer, defineOperation, emptyAnswer, problemAnswer } from "./operation";
import { IdParam } from "./schemas";

const Thing = z.object({ id: z.string(), size: z.number() });
const base = {
  method: "GET",
  path: "/things",
  tag: "Meta",
  summary: "A thing",
  description: () => "A thing.",
} as const;
const responses = {
  "200": answer("The thing.", Thing),
  "201": createdAnswer("Made.", Thing),
  "204": emptyAnswer("Gone."),
  "404": problemAnswer("`not_found`"),
};

describe("defineOperation", () => {
  it("parses a path id as the handlers use it: decoded and lower-cased, null when it cannot name one", () => {
    expect(IdParam.parse({ id: "0B0C2D4E-8F00-4A4A-9B9B-0123456789AB" })).toEqual({
      id: "0b0c2d4e-8f00-4a4a-9b9b-0123456789ab",
    });
    expect(IdParam.parse({ id: "0b0c2d4e-8f00-4a4a-9b9b-0123456789a%62" }).id).toBe(
      "0b0c2d4e-8f00-4a4a-9b9b-0123456789ab",
    );
    for (const id of ["42", "%E0%A4%A", ""]) expect(IdParam.parse({ id }).id).toBeNull();
  });

  it("accepts each declared answer", async () => {
    const op = defineOperation({
      ...base,
      authenticated: false,
      write: false,
      id: "things",
      responses,
      async handle({ query }) {
        const none: undefined = query;
        if (none) return { status: 204 };
        return { status: 201, body: { id: "a", size: 1 }, headers: { Location: "/things/a" } };
      },
    });
    expect(op.id).toBe("things");
  });

  it("refuses, at compile time, what the answers do not declare", () => {
    const refused = [
      defineOperation({
        ...base,
        authenticated: false,
        write: false,
        id: "undeclaredStatus",
        responses,
        // @ts-expect-error 202 is not one of the declared statuses
        async handle() {
          return { status: 202, body: { id: "a", size: 1 } };
        },
      }),
      defineOperation({
        ...base,
        authenticated: false,
        write: false,
        id: "bodyOffItsSchema",
        responses,
        // @ts-expect-error `size` must be a number
        async handle() {
          return { status: 200, body: { id: "a", size: "big" } };
        },
      }),
      defineOperation({
        ...base,
        authenticated: false,
        write: false,
        id: "createdWithoutLocation",
        responses,
        // @ts-expect-error a created item's answer carries its Location
        async handle() {
          return { status: 201, body: { id: "a", size: 1 } };
        },
      }),
      defineOperation({
        ...base,
        authenticated: false,
        write: false,
        id: "problemReturned",
        responses,
        // @ts-expect-error a problem is thrown as a DomainError, never returned
        async handle() {
          return { status: 404, body: { id: "a", size: 1 } };
        },
      }),
      defineOperation({
        ...base,
        authenticated: false,
        write: false,
        id: "typedQuery",
        request: { query: z.strictObject({ limit: z.number() }) },
        responses,
        async handle({ query }) {
          // @ts-expect-error the query is typed by its schema: `limit` is a number
          const limit: string = query.limit;
          return { status: 200, body: { id: limit, size: query.limit } };
        },
      }),
      defineOperation({
        ...base,
        authenticated: false,
        write: false,
        id: "typedPath",
        request: { path: IdParam },
        responses,
        async handle({ path }) {
          // @ts-expect-error an id that cannot name an item is null (then: 404)
          const id: string = path.id;
          return { status: 200, body: { id, size: 1 } };
        },
      }),
    ];
    expect(refused.map((op) => op.id)).toHaveLength(6);
  });
});
