// Property-based fuzzing of every partner-API handler, called directly: random keys, content types,
// request ids, bodies, queries and ids. Every answer must be one the contract allows (never a 5xx);
// cases valid by construction must still succeed, cases broken by construction get their exact code.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { HTTP_METHODS } from "next/dist/server/web/http";
import { adoptApp, BASE, post, useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { answerOf, BASE_PATH, expectContractAnswer, methodsOf } from "../support/contract";
import * as arb from "../support/arbitraries";
import { MAX_BODY_BYTES } from "@/lib/partner-api/request";
import { PROPERTY_STATUSES } from "@/lib/domain";

let t: TestApp;
let key: string;
// The fuzz makes more writes and endpoints than the limits allow; 429 and the endpoint cap have their own tests.
useTestApp(
  { sources: fakeSources(), env: { RATE_LIMIT_WRITES: "1000000", WEBHOOK_MAX_ENDPOINTS: "1000000" } },
  (ctx) => ({ t, key } = ctx),
);

const NUM_RUNS = 120;

/** The partner's key (also padded: header values are trimmed), or something that is not a valid key. */
const keyCase = () =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(key, ` ${key}\t`).map((header) => ({ header, valid: true })) },
    { weight: 1, arbitrary: fc.constant({ header: undefined, valid: false }) },
    { weight: 1, arbitrary: arb.headerValue.map((header) => ({ header, valid: false })) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.nat({ max: key.length - 1 }), fc.constantFrom(..."aZ09_")).map(([at, ch]) => ({
        header: key.slice(0, at) + (ch === key[at] ? "x" : ch) + key.slice(at + 1),
        valid: false,
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          key.toUpperCase(),
          key.replace("finca_test_", "finca_live_"),
          key.slice(0, -1),
          `${key}0`,
          `${key},${key}`,
        )
        .map((header) => ({ header, valid: false })),
    },
  );

const requestIdCase = fc.oneof(
  fc.constant({ header: undefined, sane: false }),
  arb.saneRequestId.map((header) => ({ header, sane: true })),
  arb.headerValue.map((header) => ({ header, sane: false })),
);

const contentTypeCase = fc.oneof(
  { weight: 5, arbitrary: arb.jsonContentType.map((header) => ({ header, valid: true })) },
  { weight: 1, arbitrary: arb.otherContentType.map((header) => ({ header, valid: false })) },
);

const headersOf = (entries: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(entries).filter((e): e is [string, string] => e[1] !== undefined));

type Body = string | Uint8Array<ArrayBuffer>;

const bytesOf = (body: Body) => (typeof body === "string" ? Buffer.from(body) : body);

/** What a body can get at most, judged independently of the handlers: a 422 unless it is a UTF-8 JSON object of exactly these string fields. */
function bodyOutcome(body: Body, fields: { required: string[]; optional?: string[] }, ok: number[]): number[] {
  const bytes = bytesOf(body);
  if (bytes.length > MAX_BODY_BYTES) return [422];
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return [422];
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [422];
  const keys = Object.keys(value);
  const known = [...fields.required, ...(fields.optional ?? [])];
  const fits =
    fields.required.every((k) => keys.includes(k)) &&
    keys.every((k) => known.includes(k) && typeof (value as Record<string, unknown>)[k] === "string");
  return fits ? [...ok, 422] : [422];
}

const randomBodies = fc.oneof(
  arb.jsonBody.map((v) => JSON.stringify(v)),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.uint8Array({ maxLength: 64 }),
);

function request(method: string, path: string, headers: Record<string, string | undefined>, body?: Body) {
  return new Request(BASE + path, { method, headers: headersOf(headers), body });
}

describe("POST /properties", () => {
  const createBody = fc.oneof(
    {
      weight: 4,
      arbitrary: arb.typedReference.map((ref) => ({
        body: JSON.stringify({ cadastral_reference: ref }) as Body,
        outcome: [200, 201],
      })),
    },
    {
      weight: 2,
      arbitrary: arb.brokenReference.map((ref) => ({
        body: JSON.stringify({ cadastral_reference: ref }) as Body,
        outcome: [400],
      })),
    },
    {
      weight: 2,
      arbitrary: randomBodies.map((body) => ({
        body,
        outcome: bodyOutcome(body, { required: ["cadastral_reference"] }, [200, 201, 400]),
      })),
    },
    {
      weight: 1,
      // Just under, at and over the cap (trailing whitespace is valid JSON), and far over.
      arbitrary: fc.tuple(arb.validReference, fc.constantFrom(-2, -1, 0, 1, 2, 100_000)).map(([ref, delta]) => {
        const json = JSON.stringify({ cadastral_reference: ref });
        const body = json + " ".repeat(MAX_BODY_BYTES + delta - Buffer.byteLength(json)); // Ñ is two bytes
        return { body: body as Body, outcome: delta <= 0 ? [200, 201] : [422] };
      }),
    },
  );

  it("answers every body, key, content type and request id as the contract says", async () => {
    await fc.assert(
      fc.asyncProperty(keyCase(), contentTypeCase, requestIdCase, createBody, async (k, type, id, body) => {
        const res = await t.api.createProperty(
          request(
            "POST",
            "/properties",
            { "X-API-Key": k.header, "Content-Type": type.header, "X-Request-Id": id.header },
            body.body,
          ),
        );
        const statuses = !k.valid ? [401] : !type.valid ? [422] : body.outcome;
        expectContractAnswer(await answerOf(res), {
          method: "POST",
          pathname: `${BASE_PATH}/properties`,
          statuses,
          requestId: id.header,
          saneRequestId: id.sane,
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("counts the cap in bytes, not characters", async () => {
    const create = (ref: string) =>
      t.api.createProperty(post("/properties", { cadastral_reference: ref }, { "X-API-Key": key }));
    // 8,000 two-byte characters fit (and are then a wrong reference); 8,200 do not.
    expect((await create("é".repeat(8_000))).status).toBe(400);
    const over = await create("é".repeat(8_200));
    expect(over.status).toBe(422);
    expect((await over.json()).detail).toMatch(/exceed/);
  });

  it("rejects a body of several MiB without reading it all, declared or not", async () => {
    for (const declared of [true, false]) {
      let pulled = 0;
      const chunk = new Uint8Array(64 * 1024).fill(0x20);
      const stream = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            if (pulled >= 8 * 1024 * 1024) return controller.close();
            pulled += chunk.byteLength;
            controller.enqueue(chunk);
          },
        },
        { highWaterMark: 0 },
      );
      const headers = {
        "X-API-Key": key,
        "Content-Type": "application/json",
        ...(declared ? { "Content-Length": String(8 * 1024 * 1024) } : {}),
      };
      // Node's fetch needs duplex for streamed request bodies; the DOM's RequestInit does not name it.
      const init: RequestInit & { duplex: "half" } = { method: "POST", headers, body: stream, duplex: "half" };
      const res = await t.api.createProperty(new Request(BASE + "/properties", init));
      expect(res.status).toBe(422);
      expect(pulled).toBeLessThanOrEqual(declared ? 0 : MAX_BODY_BYTES + 2 * chunk.byteLength);
    }
  });
});

describe("GET /properties, GET /properties/{id}", () => {
  const ids: string[] = [];
  beforeAll(async () => {
    for (const ref of fc.sample(arb.validReference, { numRuns: 5, seed: 1 })) {
      const res = await t.api.createProperty(post("/properties", { cadastral_reference: ref }, { "X-API-Key": key }));
      ids.push((await res.json()).property_id);
    }
  });

  const NAMES = ["limit", "starting_after", "status"];
  const param = () =>
    fc.oneof(
      fc.integer({ min: 1, max: 100 }).map((n) => ({ name: "limit", value: String(n), ok: true })),
      fc
        .constantFrom("0", "101", "-1", "abc", "", "1.5", "1e3", "%zz")
        .map((value) => ({ name: "limit", value, ok: false })),
      fc.constantFrom(...PROPERTY_STATUSES).map((value) => ({ name: "status", value, ok: true })),
      arb.headerValue
        .filter((v) => !(PROPERTY_STATUSES as readonly string[]).includes(v))
        .map((value) => ({ name: "status", value, ok: false })),
      fc.constantFrom(...ids).map((value) => ({ name: "starting_after", value, ok: true })),
      fc
        .oneof(fc.uuid(), arb.headerValue, arb.brokenPercent)
        .map((value) => ({ name: "starting_after", value, ok: false })),
      fc
        .string({ minLength: 1, maxLength: 12 })
        .filter((n) => !NAMES.includes(n))
        .map((name) => ({ name, value: "1", ok: false })),
    );

  it("list: any query answers 200 when every parameter is valid and given once, else 422", async () => {
    await fc.assert(
      fc.asyncProperty(keyCase(), requestIdCase, fc.array(param(), { maxLength: 4 }), async (k, id, params) => {
        const query = new URLSearchParams(params.map((p) => [p.name, p.value])).toString();
        const res = await t.api.listProperties(
          request("GET", `/properties?${query}`, { "X-API-Key": k.header, "X-Request-Id": id.header }),
        );
        const once = new Set(params.map((p) => p.name)).size === params.length;
        const statuses = !k.valid ? [401] : params.every((p) => p.ok) && once ? [200] : [422];
        const answer = await answerOf(res);
        expectContractAnswer(answer, {
          method: "GET",
          pathname: `${BASE_PATH}/properties`,
          statuses,
          requestId: id.header,
          saneRequestId: id.sane,
        });
        if (answer.status !== 200) return;
        const page = JSON.parse(answer.body) as { data: { property_id: string; status: string }[]; has_more: boolean };
        const limit = Number(params.find((p) => p.name === "limit")?.value ?? 20);
        const status = params.find((p) => p.name === "status")?.value;
        const after = params.find((p) => p.name === "starting_after")?.value;
        expect(page.data.length).toBeLessThanOrEqual(limit);
        expect(typeof page.has_more).toBe("boolean");
        if (status) expect(page.data.every((p) => p.status === status)).toBe(true);
        if (after) expect(page.data.map((p) => p.property_id)).not.toContain(after);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("get: any id segment answers 200 for the partner's property, else 404", async () => {
    const segment = fc.oneof(
      fc.constantFrom(...ids).map((id) => ({ segment: id, found: true })),
      fc.constantFrom(...ids).map((id) => ({ segment: id.toUpperCase(), found: true })),
      fc.uuid().map((segment) => ({ segment, found: false })),
      fc.string({ unit: "binary", maxLength: 40 }).map((s) => ({ segment: encodeURIComponent(s), found: false })),
      arb.brokenPercent.map((segment) => ({ segment, found: false })),
    );
    await fc.assert(
      fc.asyncProperty(keyCase(), requestIdCase, segment, async (k, id, s) => {
        const res = await t.api.getProperty(
          request("GET", `/properties/${s.segment}`, { "X-API-Key": k.header, "X-Request-Id": id.header }),
        );
        const statuses = !k.valid ? [401] : s.found ? [200] : [404];
        expectContractAnswer(await answerOf(res), {
          method: "GET",
          pathname: `${BASE_PATH}/properties/{id}`,
          statuses,
          requestId: id.header,
          saneRequestId: id.sane,
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe("/webhook-endpoints", () => {
  const PATH = "/webhook-endpoints";
  const validUrl = fc
    .tuple(fc.webPath(), fc.webQueryParameters())
    .map(([path, query]) => `https://hooks.example.com${path}${query ? `?${query}` : ""}`);
  const description = fc.option(
    fc.string({ unit: "binary", maxLength: 250 }).filter((d) => !d.includes("\u0000")),
    { nil: undefined },
  );
  const endpointBody = fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(validUrl, description)
        .map(([url, description]) => ({ body: JSON.stringify({ url, description }), outcome: [201] })),
    },
    {
      weight: 2,
      // Refused URLs and descriptions: control characters, private addresses, not URLs, too long.
      arbitrary: fc
        .oneof(
          fc.tuple(validUrl, fc.integer({ min: 0, max: 0x1f }), fc.nat()).map(([url, c, at]) => ({
            url:
              url.slice(0, 8 + (at % (url.length - 8))) +
              String.fromCharCode(c) +
              url.slice(8 + (at % (url.length - 8))),
          })),
          fc.tuple(validUrl, fc.string({ maxLength: 10 })).map(([url, s]) => ({ url, description: `${s}\u0000${s}` })),
          fc
            .tuple(validUrl, fc.string({ minLength: 501, maxLength: 600 }))
            .map(([url, description]) => ({ url, description })),
          fc
            .constantFrom(
              "https://10.0.0.1/h",
              "http://169.254.169.254/",
              "https://localhost/x",
              "https://[::1]/",
              "hooks",
              "ftp://example.com/",
              "https://user:pw@example.com/",
              "",
            )
            .map((url) => ({ url })),
        )
        .map((value) => ({ body: JSON.stringify(value), outcome: [422] })),
    },
    {
      weight: 2,
      arbitrary: randomBodies.map((body) => ({
        body,
        outcome: bodyOutcome(body, { required: ["url"], optional: ["description"] }, [201]),
      })),
    },
  );

  it("create: any body, key and content type answer as the contract says", async () => {
    await fc.assert(
      fc.asyncProperty(keyCase(), contentTypeCase, requestIdCase, endpointBody, async (k, type, id, body) => {
        const res = await t.api.createWebhookEndpoint(
          request(
            "POST",
            PATH,
            { "X-API-Key": k.header, "Content-Type": type.header, "X-Request-Id": id.header },
            body.body,
          ),
        );
        const statuses = !k.valid ? [401] : !type.valid ? [422] : body.outcome;
        const answer = await answerOf(res);
        expectContractAnswer(answer, {
          method: "POST",
          pathname: `${BASE_PATH}${PATH}`,
          statuses,
          requestId: id.header,
          saneRequestId: id.sane,
        });
        if (answer.status === 201) expect(JSON.parse(answer.body).secret).toMatch(/^whsec_/);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("list and delete: any key and id segment; an endpoint is deleted once", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.api.createWebhookEndpoint(
        post(PATH, { url: `https://hooks.example.com/${i}` }, { "X-API-Key": key }),
      );
      ids.push((await res.json()).id);
    }
    const segment = fc.oneof(
      fc.constantFrom(...ids).map((id) => ({ segment: id, outcome: [204, 404] })),
      fc.uuid().map((segment) => ({ segment, outcome: [404] })),
      fc.string({ unit: "binary", maxLength: 40 }).map((s) => ({ segment: encodeURIComponent(s), outcome: [404] })),
      arb.brokenPercent.map((segment) => ({ segment, outcome: [404] })),
    );
    await fc.assert(
      fc.asyncProperty(keyCase(), requestIdCase, segment, async (k, id, s) => {
        const headers = { "X-API-Key": k.header, "X-Request-Id": id.header };
        const deleted = await t.api.deleteWebhookEndpoint(request("DELETE", `${PATH}/${s.segment}`, headers));
        const expected = { requestId: id.header, saneRequestId: id.sane };
        expectContractAnswer(await answerOf(deleted), {
          method: "DELETE",
          pathname: `${BASE_PATH}${PATH}/{id}`,
          statuses: k.valid ? s.outcome : [401],
          ...expected,
        });
        const list = await t.api.listWebhookEndpoints(request("GET", PATH, headers));
        expectContractAnswer(await answerOf(list), {
          method: "GET",
          pathname: `${BASE_PATH}${PATH}`,
          statuses: k.valid ? [200] : [401],
          ...expected,
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe("unknown paths and other methods", () => {
  it("an unknown path is a 404 problem, whatever the method", async () => {
    const path = fc.string({ unit: "binary", maxLength: 30 }).map((s) => `/${encodeURIComponent(s)}/x`);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...HTTP_METHODS), path, requestIdCase, async (method, p, id) => {
        const res = await t.api.dispatch(
          request(method, p, { "X-Request-Id": id.header }, method === "GET" || method === "HEAD" ? undefined : "{}"),
        );
        // Called directly, a HEAD answer keeps the body a server would drop.
        const as = method === "HEAD" ? "GET" : method;
        expectContractAnswer(await answerOf(res), {
          method: as,
          pathname: `${BASE_PATH}${p}`,
          statuses: [404],
          requestId: id.header,
          saneRequestId: id.sane,
        });
      }),
      { numRuns: 50 },
    );
  });

  // Next.js answers a method a route file does not export with a bare 405: no problem+json, no
  // X-Request-Id. The one route file must therefore export every method Next.js routes, and
  // answer each path's other methods (and unknown paths) with the API's own problems.
  const routeFile = () => import("@/app/api/v1/partner-api/[[...path]]/route");
  const routeFiles = Object.fromEntries(
    [
      "/properties",
      "/properties/00000000-0000-4000-8000-000000000000",
      "/webhook-endpoints",
      "/webhook-endpoints/00000000-0000-4000-8000-000000000000",
      "/openapi.json",
      "/unknown/path",
    ].map((path) => [path, routeFile]),
  );
  beforeAll(() => adoptApp(t.app));
  it.each(Object.entries(routeFiles))(
    "Next.js route file for %s: every other method is a problem+json 405 (404 for unknown paths)",
    async (path, load) => {
      const handlers = (await load()) as Record<string, ((req: Request) => Promise<Response>) | undefined>;
      const pathname = `${BASE_PATH}${path}`;
      const methods = methodsOf(pathname) ?? [];
      for (const method of HTTP_METHODS) {
        // The operations themselves need the process's App; their answers are fuzzed above.
        if (methods.includes(method)) continue;
        // Next.js answers HEAD with GET when there is one.
        const handle = handlers[method] ?? (method === "HEAD" ? handlers.GET : undefined);
        expect(handle, `${method} ${path} must be exported`).toBeTypeOf("function");
        const res = await handle!(request(method, path, { "X-Request-Id": "fuzz-1" }));
        const as = method === "HEAD" ? "GET" : method;
        expectContractAnswer(await answerOf(res), { method: as, pathname, requestId: "fuzz-1", saneRequestId: true });
        if (res.status === 405) expect(res.headers.get("allow")!.split(", ").sort()).toEqual([...methods].sort());
      }
    },
  );
});
