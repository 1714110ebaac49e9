// Request logs: every partner API request a key authenticated ends as one row (batched, off
// the request path), with what a partner needs to find it and nothing secret; old rows are pruned.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { schema } from "@/lib/db";
import { QUEUES } from "@/lib/queue";
import {
  findRequest,
  getRequestLog,
  pruneRequestLogs,
  requestLogWriter,
  searchRequestLogs,
  type RequestLogEntry,
  type WriterOptions,
} from "@/lib/request-logs";
import { BASE, createTestApp, get, newPartnerKey, post, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { exchange } from "../support/raw-http";
import { partnerApiListener } from "@/lib/partner-api/node-server";
import { eventually } from "../support/wait";

const { requestLogs } = schema;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources(), env: { REQUEST_LOG_FLUSH_MS: "50" } });
});
afterAll(() => t.close());

const logged = (requestId: string) =>
  eventually(`request ${requestId} logged`, async () => (await findRequest(t.app.db, requestId))[0]);

describe("through the real handlers", () => {
  it("logs each request with its fields, its detail, and no key or secret", async () => {
    const { key, partner, apiKey } = await newPartnerKey(t.app);
    const secretish = `whsec_${Buffer.from("secret that must not leak, 32 b.").toString("base64")}`;
    const res = await t.api.dispatch(
      post(
        "/properties?token=abc",
        { cadastral_reference: "bad", secret: secretish },
        { "X-API-Key": key, "X-Request-Id": `logs-${partner.id}` },
      ),
    );
    expect(res.status).toBe(422);
    const row = await logged(`logs-${partner.id}`);
    expect(row).toMatchObject({
      partnerId: partner.id,
      mode: "test",
      keyId: apiKey.id,
      keyVisibleStart: key.slice(0, 17),
      method: "POST",
      path: "/api/v1/partner-api/properties",
      status: 422,
      errorCode: "validation_error",
      partner: partner.name,
      query: "token=[redacted]",
      requestBody: '{"cadastral_reference":"bad","secret":"[redacted secret]"}',
      propertyId: null,
    });
    // The answer as the partner got it: which field failed, and why.
    expect(row.problem).toEqual(await res.json());
    expect(row.problem).toMatchObject({ code: "validation_error", errors: [{ pointer: "/secret" }] });
    expect(row.requestHeaders).toMatchObject({
      "x-api-key": `${key.slice(0, 17)}…`,
      "content-type": "application/json",
      "x-request-id": `logs-${partner.id}`,
    });
    expect(row.durationMs).toBeGreaterThanOrEqual(0);
    const everything = JSON.stringify(await t.app.db.select().from(requestLogs));
    expect(everything).not.toContain(key);
    expect(everything).not.toContain(secretish);
    expect(everything).not.toContain("token=abc");
  });

  it("logs the headers node's server was sent as the fetch handlers log them, a repeated one joined", async () => {
    const { key } = await newPartnerKey(t.app);
    const id = `node-headers-${Date.now()}`;
    const server = http.createServer(partnerApiListener(t.api));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const lines = ["Host: finca.test", "Connection: close", `X-Request-Id: ${id}-node`, `x-API-key: ${key}`];
    lines.push("X-Trace: a", "X-Trace: b", "Accept: */*");
    try {
      const { answer } = await exchange((server.address() as AddressInfo).port, [
        `GET /api/v1/partner-api/properties HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`,
      ]);
      expect(answer?.status).toBe(200);
      expect(answer?.headers.get("x-request-id")).toBe(`${id}-node`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const headers = { "X-Request-Id": `${id}-fetch`, "x-API-key": key, "X-Trace": "a, b", Accept: "*/*" };
    await t.api.dispatch(get("/properties", { Host: "finca.test", Connection: "close", ...headers }));
    const [node, fetched] = [await logged(`${id}-node`), await logged(`${id}-fetch`)];
    expect(node.requestHeaders).toEqual({ ...fetched.requestHeaders, "x-request-id": `${id}-node` });
    // jsonb keeps keys in an order of its own: the names, sorted here.
    expect(Object.keys(node.requestHeaders!).sort()).toEqual([
      "accept",
      "connection",
      "host",
      "x-api-key",
      "x-request-id",
      "x-trace",
    ]);
    expect(node.requestHeaders).toMatchObject({ "x-api-key": `${key.slice(0, 17)}…`, "x-trace": "a, b" });
  });

  it("redacts a key pasted into a body, a header or a query before storage, however it is escaped", async () => {
    const { key } = await newPartnerKey(t.app);
    const id = `pasted-detail-${Date.now()}`;
    const reference = "2749704YJ0624N0001DI";
    // Strict bodies and queries: those with a note are refused (422), and logged all the same.
    const requests: [string, Request, number][] = [
      ["body", post("/properties", { cadastral_reference: reference, note: key }, { "X-API-Key": key }), 422],
      [
        "escaped",
        post("/properties", `{"cadastral_reference":"${reference}","n":"\\u0066inca${key.slice(5)}"}`, {
          "X-API-Key": key,
        }),
        422,
      ],
      ["header", get("/properties", { "X-API-Key": key, "X-Note": `pasted ${key}`, [key]: "a name" }), 200],
      ["query", get(`/properties?note=${key}&other=%66inca${key.slice(5)}`, { "X-API-Key": key }), 422],
    ];
    for (const [name, req, status] of requests) {
      req.headers.set("X-Request-Id", `${id}-${name}`);
      expect((await t.api.dispatch(req)).status, name).toBe(status);
    }
    expect((await logged(`${id}-body`)).requestBody).toBe(
      `{"cadastral_reference":"${reference}","note":"[redacted key]"}`,
    );
    // Matched in the body as JSON decodes it: the escaped key alone is cut out.
    expect((await logged(`${id}-escaped`)).requestBody).toBe(
      `{"cadastral_reference":"${reference}","n":"[redacted key]"}`,
    );
    expect((await logged(`${id}-header`)).requestHeaders).toMatchObject({
      "x-note": "pasted [redacted key]",
      "[redacted key]": "a name",
    });
    expect((await logged(`${id}-query`)).query).toBe("note=[redacted key]&other=[redacted key]");
    const everything = JSON.stringify(await t.app.db.select().from(requestLogs));
    expect(everything).not.toContain(key.slice(11));
  });

  it("redacts what a problem repeats of a request: a member's name, a parameter, a header", async () => {
    const { key } = await newPartnerKey(t.app);
    const id = `problem-${Date.now()}`;
    const requests: [string, Request][] = [
      ["member", post("/properties", { cadastral_reference: "2749704YJ0624N0001DI", [key]: 1 }, { "X-API-Key": key })],
      ["parameter", get(`/properties?${key}=1`, { "X-API-Key": key })],
      ["type", post("/properties", "{}", { "X-API-Key": key, "Content-Type": `text/plain; x=${key}` })],
    ];
    for (const [name, req] of requests) {
      req.headers.set("X-Request-Id", `${id}-${name}`);
      const res = await t.api.dispatch(req);
      expect(res.status, name).toBe(422);
      // The client is answered with what it sent; the row keeps none of it.
      expect(await res.text(), name).toContain(key);
      expect(JSON.stringify((await logged(`${id}-${name}`)).problem), name).toContain("[redacted key]");
    }
    expect(JSON.stringify(await t.app.db.select().from(requestLogs))).not.toContain(key.slice(11));
  });

  it("keeps no URL's credentials: not a path's, nor an absolute-form target's (answered as its path)", async () => {
    const { key } = await newPartnerKey(t.app);
    const id = `userinfo-${Date.now()}`;
    await t.api.dispatch(
      get("/properties/https:%2F%2Fadmin:hunter2@db.example.com", { "X-API-Key": key, "X-Request-Id": `${id}-path` }),
    );
    expect((await logged(`${id}-path`)).path).toBe("/api/v1/partner-api/properties/https://[redacted]@db.example.com");
    const server = http.createServer(partnerApiListener(t.api));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const lines = ["Host: finca.test", "Connection: close", `X-Request-Id: ${id}-absolute`, `X-API-Key: ${key}`];
    try {
      const { answer } = await exchange((server.address() as AddressInfo).port, [
        `GET http://admin:hunter2@finca.test/api/v1/partner-api/properties HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`,
      ]);
      expect(answer?.status).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect((await logged(`${id}-absolute`)).path).toBe("/api/v1/partner-api/properties");
    expect(JSON.stringify(await t.app.db.select().from(requestLogs))).not.toContain("hunter2");
  });

  it("links the property a request created, read or looked up, and caps a body at 4 KiB", async () => {
    const { key } = await newPartnerKey(t.app);
    const id = `linked-${Date.now()}`;
    const created = await t.api.dispatch(
      post(
        "/properties",
        { cadastral_reference: "2749704YJ0624N0001DI" },
        { "X-API-Key": key, "X-Request-Id": `${id}-create` },
      ),
    );
    const { property_id } = (await created.json()) as { property_id: string };
    await t.api.dispatch(get(`/properties/${property_id}`, { "X-API-Key": key, "X-Request-Id": `${id}-read` }));
    await t.api.dispatch(
      get("/properties?cadastral_reference=2749704YJ0624N0001DI", { "X-API-Key": key, "X-Request-Id": `${id}-find` }),
    );
    for (const step of ["create", "read", "find"])
      expect((await logged(`${id}-${step}`)).propertyId, step).toBe(property_id);

    const padded = { cadastral_reference: "2749704YJ0624N0001DI", pad: "p".repeat(6000) };
    await t.api.dispatch(post("/properties", padded, { "X-API-Key": key, "X-Request-Id": `${id}-long` }));
    const body = (await logged(`${id}-long`)).requestBody!;
    expect(body).toBe(`${JSON.stringify(padded).slice(0, 4096)}…`);
  });

  it("redacts a key or secret pasted into the path, however it is encoded, and cuts long paths", async () => {
    const { key } = await newPartnerKey(t.app);
    const id = `pasted-${Date.now()}`;
    const paths: [string, string, string][] = [
      ["plain", `/properties/${key}`, "/properties/finca_test_[redacted]"],
      ["secret", "/properties/whsec_c2VjcmV0", "/properties/whsec_[redacted]"],
      ["underscores", `/properties/finca%5Ftest%5F${key.slice(11)}`, "/properties/finca_test_[redacted]"],
      ["letter", `/properties/%66inca_test_${key.slice(11)}`, "/properties/finca_test_[redacted]"],
      ["twice", `/properties/%2566inca_test_${key.slice(11)}`, "/properties/finca_test_[redacted]"],
    ];
    for (const [name, path] of paths)
      await t.api.dispatch(get(path, { "X-API-Key": key, "X-Request-Id": `${id}-${name}` }));
    for (const [name, , expected] of paths)
      expect((await logged(`${id}-${name}`)).path, name).toBe(`/api/v1/partner-api${expected}`);
    await t.api.dispatch(get(`/properties/${"a".repeat(15_000)}`, { "X-API-Key": key, "X-Request-Id": `${id}-long` }));
    const long = (await logged(`${id}-long`)).path;
    expect(long).toHaveLength(512);
    expect(long.endsWith("…")).toBe(true);
    const everything = JSON.stringify(await t.app.db.select().from(requestLogs));
    expect(everything).not.toContain(key.slice(11));
  });

  it("never adopts a key or secret sent as X-Request-Id: the request gets an id of its own", async () => {
    const { key } = await newPartnerKey(t.app);
    for (const pasted of [key, "whsec_c2VjcmV0", key.toUpperCase()]) {
      const res = await t.api.dispatch(get("/properties", { "X-API-Key": key, "X-Request-Id": pasted }));
      const id = res.headers.get("x-request-id")!;
      expect(id).toMatch(/^req_[0-9a-f]{32}$/);
      expect((await logged(id)).status).toBe(200);
    }
    expect(JSON.stringify(await t.app.db.select().from(requestLogs))).not.toContain(key.slice(11));
  });

  it("keeps no row of a request no key authenticated, and counts it", async () => {
    const unauthenticated = async () =>
      (await t.app.metrics.requestLogRows.get()).values.find((v) => v.labels.outcome === "unauthenticated")?.value ?? 0;
    const before = await unauthenticated();
    const id = `anon-${Date.now()}`;
    await t.api.dispatch(get("/properties", { "X-API-Key": "finca_test_nope", "X-Request-Id": id }));
    await t.api.dispatch(new Request(`${BASE}/nothing`, { headers: { "X-Request-Id": `${id}-404` } }));
    // A later authenticated request's row is written: the two before it would have been by then.
    const { key } = await newPartnerKey(t.app);
    await t.api.dispatch(get("/properties", { "X-API-Key": key, "X-Request-Id": `${id}-after` }));
    await logged(`${id}-after`);
    expect(await findRequest(t.app.db, id)).toEqual([]);
    expect(await findRequest(t.app.db, `${id}-404`)).toEqual([]);
    expect(await unauthenticated()).toBe(before + 2);
  });

  it("stores a request whose query or body holds NUL, and every other request of its batch", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const tag = `nul-${Date.now()}`;
    const poisons = [
      get("/properties?x=%00", { "X-API-Key": key, "X-Request-Id": `${tag}-query` }),
      post("/properties", '{"cadastral_reference":"a\u0000b"}', { "X-API-Key": key, "X-Request-Id": `${tag}-json` }),
      post("/properties", '{"cadastral_reference":"a\0b"}', { "X-API-Key": key, "X-Request-Id": `${tag}-raw` }),
    ];
    // Sent together with the good requests, so that they share an insert.
    const answers = await Promise.all([
      ...poisons.map((req) => t.api.dispatch(req)),
      ...Array.from({ length: 30 }, () => t.api.dispatch(get("/properties", { "X-API-Key": key }))),
    ]);
    expect(answers.map((a) => a.status).slice(0, 3)).toEqual([422, 422, 422]);
    await eventually("all 33 rows written", async () => {
      const rows = await t.app.db.select().from(requestLogs).where(eq(requestLogs.partnerId, partner.id));
      return rows.length === 33;
    });
    // What PostgreSQL refuses is kept as its escape, visibly.
    expect((await logged(`${tag}-query`)).query).toBe("x=\\u0000");
    expect((await logged(`${tag}-raw`)).requestBody).toBe('{"cadastral_reference":"a\\u0000b"}');
    // A JSON escape is text as sent: kept as it is.
    expect((await logged(`${tag}-json`)).requestBody).toBe('{"cadastral_reference":"a\\u0000b"}');
  });

  it("writes many concurrent requests as rows, each once", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        t.api.dispatch(get(`/properties?limit=${(i % 5) + 1}`, { "X-API-Key": key })),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const ids = new Set(answers.map((a) => a.headers.get("x-request-id")));
    await eventually("all 120 rows written", async () => {
      const rows = await t.app.db
        .select({ id: requestLogs.requestId })
        .from(requestLogs)
        .where(eq(requestLogs.partnerId, partner.id));
      return rows.length === 120 && rows.every((r) => ids.has(r.id));
    });
  });
});

describe("searching a partner's logs", () => {
  it("filters by status class or code, path and date, scoped to partner and mode, with keyset pages", async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const other = await newPartnerKey(t.app);
    await t.api.dispatch(get("/properties", { "X-API-Key": other.key }));
    for (let i = 0; i < 3; i++) await t.api.dispatch(get("/properties", { "X-API-Key": key }));
    await t.api.dispatch(get("/properties/00000000-0000-4000-8000-000000000000", { "X-API-Key": key }));
    await t.api.dispatch(post("/properties", { cadastral_reference: "bad" }, { "X-API-Key": key }));
    const scope = { partnerId: partner.id, mode: "test" as const, role: "owner" as const, limit: 2 };
    await eventually(
      "5 rows",
      async () => (await searchRequestLogs(t.app.db, { ...scope, limit: 10 })).rows.length === 5,
    );
    expect((await searchRequestLogs(t.app.db, { ...scope, mode: "live" })).rows).toEqual([]);
    expect(
      (await searchRequestLogs(t.app.db, { ...scope, status: "4xx", limit: 10 })).rows.map((r) => r.status).sort(),
    ).toEqual([400, 404]);
    expect((await searchRequestLogs(t.app.db, { ...scope, status: 400 })).rows).toHaveLength(1);
    expect(
      (await searchRequestLogs(t.app.db, { ...scope, path: "/api/v1/partner-api/properties/", limit: 10 })).rows,
    ).toHaveLength(1);
    expect((await searchRequestLogs(t.app.db, { ...scope, from: new Date(Date.now() + 3_600_000) })).rows).toEqual([]);
    const first = await searchRequestLogs(t.app.db, scope);
    const second = await searchRequestLogs(t.app.db, { ...scope, before: first.next! });
    const third = await searchRequestLogs(t.app.db, { ...scope, before: second.next! });
    expect([...first.rows, ...second.rows, ...third.rows].map((r) => r.id)).toHaveLength(5);
    expect(new Set([...first.rows, ...second.rows, ...third.rows].map((r) => r.id)).size).toBe(5);
    expect(third.next).toBeNull();
  });
});

describe("what a role sees of its organisation's logs", () => {
  it("a role that may not see live endpoints sees only hosts of URLs in live rows; builders all", async () => {
    const live = await newPartnerKey(t.app, "live");
    const test = await newPartnerKey(t.app);
    const url = "https://hooks.example.com/in/tok_9f8e7d6c5b4a?sig=abc";
    // Each a URL a parser takes (every one a 201): slashes JSON-escaped (PHP's json_encode), none,
    // backslashes, an apostrophe, an escape inside the scheme.
    const bodies = [
      `{"url":"${url}"}`,
      `{"url":"https:\\/\\/hooks.example.com\\/in\\/tok_9f8e7d6c5b4a"}`,
      '{"url":"https:hooks.example.com/in/tok_9f8e7d6c5b4a"}',
      '{"url":"https:\\\\\\\\hooks.example.com\\\\in\\\\tok_9f8e7d6c5b4a"}',
      `{"url":"https://hooks.example.com/in'/tok_9f8e7d6c5b4a"}`,
      '{"url":"h\\u0074tps://hooks.example.com/in/tok_9f8e7d6c5b4a"}',
    ];
    const tag = `urls-${Date.now()}`;
    for (const [name, key] of [
      ["live", live.key],
      ["test", test.key],
    ] as const) {
      for (const [i, body] of bodies.entries())
        await t.api.dispatch(
          post("/webhook-endpoints", body, { "X-API-Key": key, "X-Request-Id": `${tag}-${name}-${i}` }),
        );
      await t.api.dispatch(
        get(`/properties?next=${encodeURIComponent(url)}`, {
          "X-API-Key": key,
          "X-Request-Id": `${tag}-${name}-query`,
        }),
      );
      for (const form of [
        "https:hooks.example.com/in/tok_9f8e7d6c5b4a",
        "https:\\u002f\\u002fhooks.example.com\\u002fin",
      ])
        await t.api.dispatch(
          post("/properties", `{"cadastral_reference":"x","note":"${form}"}`, {
            "X-API-Key": key,
            "X-Request-Id": `${tag}-${name}-note-${form.length}`,
          }),
        );
    }
    for (const name of ["live", "test"]) await logged(`${tag}-${name}-query`);
    const read = async (partnerId: string, mode: "live" | "test", role: "viewer" | "developer") =>
      JSON.stringify(
        await Promise.all(
          (await searchRequestLogs(t.app.db, { partnerId, mode, role, limit: 20 })).rows.map(async (row) => [
            row,
            await getRequestLog(t.app.db, { partnerId, mode, role }, row.id),
          ]),
        ),
      );
    const viewerLive = await read(live.partner.id, "live", "viewer");
    expect(viewerLive).toContain("https://hooks.example.com/[hidden]");
    expect(viewerLive).toContain("https:hooks.example.com/[hidden]");
    expect(viewerLive).toContain("[hidden: a webhook endpoint's request");
    for (const secret of ["tok_9f8e7d6c5b4a", "/in/", "sig=abc", "u002fin"]) expect(viewerLive).not.toContain(secret);
    expect(await read(live.partner.id, "live", "developer")).toContain("tok_9f8e7d6c5b4a");
    expect(await read(test.partner.id, "test", "viewer")).toContain("tok_9f8e7d6c5b4a");
  });
});

describe("the writer", () => {
  const entry = (requestId: string): RequestLogEntry => ({
    requestId,
    method: "GET",
    path: "/x",
    status: 200,
    durationMs: 1,
    at: new Date(),
  });

  /** A writer on the test database that writes only when told (or a batch fills). */
  const writerWith = (options: Partial<WriterOptions>) =>
    requestLogWriter(t.app.db, {
      intervalMs: 60_000,
      batchSize: 100,
      maxQueued: 100,
      maxQueuedBytes: 1_000_000,
      ...options,
    });

  it("drops what does not fit its queue, counting it, and writes the rest", async () => {
    const dropped: number[] = [];
    const writer = writerWith({ batchSize: 1000, maxQueued: 3, onDropped: (n) => dropped.push(n) });
    const tag = `bounded-${Date.now()}`;
    for (let i = 0; i < 5; i++) writer.record(entry(`${tag}-${i}`));
    await writer.close();
    expect(dropped).toEqual([1, 1]);
    const rows = await t.app.db.select().from(requestLogs).where(sql`starts_with(${requestLogs.requestId}, ${tag})`);
    expect(rows.map((r) => r.requestId).sort()).toEqual([0, 1, 2].map((i) => `${tag}-${i}`));
  });

  it("counts a row recorded after it closed as dropped: no flush is to come", async () => {
    const dropped: number[] = [];
    const writer = writerWith({ onDropped: (n) => dropped.push(n) });
    const tag = `after-close-${Date.now()}`;
    writer.record(entry(`${tag}-0`));
    await writer.close();
    writer.record(entry(`${tag}-1`));
    expect(dropped).toEqual([1]);
    const rows = await t.app.db.select().from(requestLogs).where(sql`starts_with(${requestLogs.requestId}, ${tag})`);
    expect(rows.map((r) => r.requestId)).toEqual([`${tag}-0`]);
  });

  it("drops rows past its size bound too, counting them", async () => {
    const dropped: number[] = [];
    const writer = writerWith({ batchSize: 1000, maxQueuedBytes: 10_000, onDropped: (n) => dropped.push(n) });
    const tag = `sized-${Date.now()}`;
    for (let i = 0; i < 4; i++) writer.record({ ...entry(`${tag}-${i}`), requestBody: "b".repeat(4000) });
    await writer.close();
    expect(dropped).toEqual([1, 1]);
    const rows = await t.app.db.select().from(requestLogs).where(sql`starts_with(${requestLogs.requestId}, ${tag})`);
    expect(rows).toHaveLength(2);
  });

  it("writes a steady stream of rows in full batches, not a small insert after each one", async () => {
    const written: number[] = [];
    const writer = writerWith({ maxQueued: 1000, onWritten: (n) => written.push(n) });
    const tag = `steady-${Date.now()}`;
    // A row a millisecond, as requests arrive: the inserts run while rows keep coming.
    for (let i = 0; i < 400; i++) {
      writer.record(entry(`${tag}-${i}`));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await writer.close();
    expect(written.reduce((a, n) => a + n, 0)).toBe(400);
    // Four full batches (one may come as two, its rest queued while the one before was written) and
    // close's: the code before wrote what came during each insert at once, some hundred inserts here.
    expect(written.length).toBeLessThanOrEqual(9);
    expect(await rowsTagged(tag)).toHaveLength(400);
  });

  it("reports a failed insert and goes on", async () => {
    const errors: number[] = [];
    const written: number[] = [];
    const writer = writerWith({
      batchSize: 1,
      maxQueued: 10,
      onError: (_, n) => errors.push(n),
      onWritten: (n) => written.push(n),
    });
    writer.record({ ...entry("bad"), partnerId: "00000000-0000-4000-8000-000000000000" }); // no such partner
    writer.record(entry(`after-bad-${Date.now()}`));
    await writer.close();
    expect(errors).toEqual([1]);
    expect(written).toEqual([1]);
  });

  const rowsTagged = (tag: string) =>
    t.app.db.select().from(requestLogs).where(sql`starts_with(${requestLogs.requestId}, ${tag})`);

  it("stores rows with NUL and lone surrogates escaped, in text and in jsonb", async () => {
    const errors: unknown[] = [];
    const writer = writerWith({ onError: (error) => errors.push(error) });
    const tag = `escaped-${Date.now()}`;
    writer.record({
      ...entry(`${tag}-poison`),
      path: "/x\u0000",
      query: "q=\u0000",
      requestBody: "a\u0000b \ud800 \udc00 \ud83d\ude00",
      requestHeaders: { "x-\u0000": "v\u0000", "x-s": "\udfff" },
      problem: { detail: "bad \u0000", errors: [{ detail: "\ud800" }], "k\u0000": 1 },
    });
    for (let i = 0; i < 5; i++) writer.record(entry(`${tag}-good-${i}`));
    await writer.close();
    expect(errors).toEqual([]);
    const rows = await rowsTagged(tag);
    expect(rows).toHaveLength(6);
    const poison = rows.find((r) => r.requestId === `${tag}-poison`)!;
    expect(poison).toMatchObject({
      path: "/x\\u0000",
      query: "q=\\u0000",
      // A whole pair is kept as it is.
      requestBody: "a\\u0000b \\ud800 \\udc00 \ud83d\ude00",
      requestHeaders: { "x-\\u0000": "v\\u0000", "x-s": "\\udfff" },
      problem: { detail: "bad \\u0000", errors: [{ detail: "\\ud800" }], "k\\u0000": 1 },
    });
  });

  it("loses only a row the database refuses, writing the other rows of its insert", async () => {
    const errors: [number, boolean][] = [];
    let written = 0;
    const writer = writerWith({
      batchSize: 500,
      maxQueued: 1000,
      maxQueuedBytes: 10_000_000,
      onError: (_, n, refused) => errors.push([n, refused]),
      onWritten: (n) => (written += n),
    });
    const tag = `one-bad-${Date.now()}`;
    for (let i = 0; i < 100; i++)
      writer.record(
        // No such partner: refused by its foreign key (23503), escaping cannot help.
        i === 37 ? { ...entry(`${tag}-bad`), partnerId: "00000000-0000-4000-8000-000000000000" } : entry(`${tag}-${i}`),
      );
    await writer.close();
    expect(errors).toEqual([[1, true]]);
    expect(written).toBe(99);
    expect(await rowsTagged(tag)).toHaveLength(99);
  });

  it("counts a refused row in /metrics as refused, the process's other rows written", async () => {
    const outcome = async (name: string) =>
      (await t.app.metrics.requestLogRows.get()).values.find((v) => v.labels.outcome === name)?.value ?? 0;
    const before = { refused: await outcome("refused"), failed: await outcome("failed") };
    const { partner, apiKey } = await newPartnerKey(t.app);
    const tag = `metered-${Date.now()}`;
    const record = (requestId: string, partnerId: string) =>
      t.app.onRequest!({
        at: new Date(),
        requestId,
        method: "GET",
        path: "/api/v1/partner-api/properties",
        operationId: "listProperties",
        status: 200,
        durationMs: 1,
        partnerId,
        mode: "test",
        keyId: apiKey.id,
        keyStart: null,
        errorCode: null,
        detail: () => ({ query: null, headers: {}, body: null, problem: null, propertyId: null }),
      });
    record(`${tag}-gone`, "00000000-0000-4000-8000-000000000000");
    for (let i = 0; i < 20; i++) record(`${tag}-${i}`, partner.id);
    await eventually("the refused row counted", async () => (await outcome("refused")) === before.refused + 1);
    await eventually("the 20 others written", async () => (await rowsTagged(tag)).length === 20);
    expect(await outcome("failed")).toBe(before.failed);
  });
});

describe("pruning", () => {
  it("removes rows past the retention only, in batches", async () => {
    const tag = `prune-${Date.now()}`;
    const day = 86_400_000;
    await t.app.db.insert(requestLogs).values([
      ...Array.from({ length: 5 }, (_, i) => ({
        requestId: `${tag}-old-${i}`,
        method: "GET",
        path: "/x",
        status: 200,
        durationMs: 1,
        at: new Date(Date.now() - 31 * day),
      })),
      {
        requestId: `${tag}-recent`,
        method: "GET",
        path: "/x",
        status: 200,
        durationMs: 1,
        at: new Date(Date.now() - 29 * day),
      },
    ]);
    expect(await pruneRequestLogs(t.app.db, 30, 2)).toBe(5);
    const left = await t.app.db
      .select({ id: requestLogs.requestId })
      .from(requestLogs)
      .where(sql`starts_with(${requestLogs.requestId}, ${tag})`);
    expect(left.map((r) => r.id)).toEqual([`${tag}-recent`]);
  });

  it("runs as the scheduled job with the configured retention", async () => {
    const app = await createTestApp({ testDb: t.testDb, workers: true, env: { REQUEST_LOG_RETENTION_DAYS: "2" } });
    try {
      const tag = `job-${Date.now()}`;
      await app.app.db.insert(requestLogs).values([
        {
          requestId: `${tag}-old`,
          method: "GET",
          path: "/x",
          status: 200,
          durationMs: 1,
          at: new Date(Date.now() - 3 * 86_400_000),
        },
        {
          requestId: `${tag}-new`,
          method: "GET",
          path: "/x",
          status: 200,
          durationMs: 1,
          at: new Date(Date.now() - 86_400_000),
        },
      ]);
      const schedules = await app.app.queue.getSchedules();
      expect(schedules.map((s) => s.name)).toContain(QUEUES.pruneRequestLogs);
      await app.app.queue.send(QUEUES.pruneRequestLogs, {});
      await eventually("the old row pruned", async () => (await findRequest(app.app.db, `${tag}-old`)).length === 0);
      expect(await findRequest(app.app.db, `${tag}-new`)).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
