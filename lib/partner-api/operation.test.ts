// A handler's reply is typed by its operation's declared answers: an undeclared status, a body off
// its schema or a created item's answer without Location does not compile (tsc checks each
// `@ts-expect-error` below: one that no longer marks an error is itself an error). The flags are
// written in each entry, as in the table: they choose the handler's context.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answer, createdAnswer, defineOperation, emptyAnswer, problemAnswer } from "./operation";

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
    ];
    expect(refused.map((op) => op.id)).toHaveLength(5);
  });
});
