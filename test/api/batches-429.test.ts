import { describe, expect, it } from "vitest";
import { BASE, newPartnerKey, problemOf, useTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { postCsv, postJson, postXlsx, workbookOf, XLSX_TYPE } from "../support/batches";
import { eventually } from "../support/wait";
import { readersRunning } from "@/lib/spreadsheets";

let t: TestApp;
useTestApp(
  {
    sources: fakeSources(),
    env: { RATE_LIMIT_WRITES: "3", BATCH_MAX_ACTIVE: "10", WORKBOOK_WORKERS: "4", WORKBOOK_WORKERS_PER_PARTNER: "1" },
  },
  (ctx) => ({ t } = ctx),
);

describe("batch writes → 429 rate_limited", () => {
  it("a batch counts once whatever its size; a cancel counts; reads do not", async () => {
    const { key } = await newPartnerKey(t.app);
    const headers = { "X-API-Key": key };
    const rows = Array.from({ length: 500 }, (_, i) => `ref-${i}`).join("\n");
    const big = await t.api.createBatch(postCsv(`refcat\n${rows}\n`, headers));
    expect(big.status).toBe(202);
    expect(big.headers.get("ratelimit")).toMatch(/^"writes";r=2;/);
    const id = ((await big.json()) as { batch_id: string }).batch_id;
    expect(
      (await t.api.cancelBatch(new Request(`${BASE}/batches/${id}`, { method: "DELETE", headers }))).headers.get(
        "ratelimit",
      ),
    ).toMatch(/r=1;/);
    for (let i = 0; i < 3; i++)
      expect((await t.api.getBatch(new Request(`${BASE}/batches/${id}`, { headers }))).status).toBe(200);
    expect((await t.api.createBatch(postJson({ items: [{ cadastral_reference: "x" }] }, headers))).status).toBe(202);
    const refused = await t.api.createBatch(postJson({ items: [{ cadastral_reference: "x" }] }, headers));
    expect(refused.status).toBe(429);
    expect(await problemOf(refused)).toMatchObject({ code: "rate_limited" });
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("the limit comes before validation: an invalid batch over the limit is a 429", async () => {
    const { key } = await newPartnerKey(t.app);
    for (let i = 0; i < 3; i++) await t.api.createBatch(postJson({ items: [] }, { "X-API-Key": key }));
    expect((await t.api.createBatch(postJson({ items: [] }, { "X-API-Key": key }))).status).toBe(429);
  });
});

// An XLSX body is read by the portal's workbook readers (issue 43 §2, under issue 37 §2's caps): one
// of a partner's at a time per process, ended when its request is aborted.
describe("XLSX bodies → 429 rate_limited", () => {
  it("a partner's second workbook while its first is read is refused; the first, aborted, frees its reader", async () => {
    const { key } = await newPartnerKey(t.app);
    const headers = { "X-API-Key": key };
    const bytes = await workbookOf([["refcat"], ["2749704YJ0624N0001DI"]]);
    const gone = new AbortController();
    // Half a workbook, then nothing: its reader holds the partner's slot until the request is aborted.
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, bytes.length >> 1));
      },
    });
    const first = t.api.createBatch(
      new Request(`${BASE}/batches`, {
        method: "POST",
        headers: { ...headers, "Content-Type": XLSX_TYPE },
        body: stalled,
        signal: gone.signal,
        duplex: "half",
      } as RequestInit),
    );
    await eventually("the first workbook being read", () => readersRunning() > 0 || null);
    const second = await t.api.createBatch(postXlsx(bytes, headers));
    expect(second.status).toBe(429);
    expect(await problemOf(second)).toMatchObject({
      code: "rate_limited",
      detail: "At most 1 of your workbooks are read at once: try again when the one being read is done.",
    });
    gone.abort(new Error("the client went away"));
    await first.catch(() => null);
    await eventually("the reader ended", () => readersRunning() === 0 || null);
    expect((await t.api.createBatch(postXlsx(bytes, headers))).status).toBe(202);
  });
});
