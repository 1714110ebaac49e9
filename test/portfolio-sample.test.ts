// The sample portfolio the Portfolios page and its guide offer (GET /docs/portfolios/sample/…):
// valid sandbox references on new parcels at each download, one of each scenario among them, in a
// CSV the API takes as it is and an XLSX of the same rows; a test-mode batch of it ends as the
// scenarios say.
import { Readable } from "node:stream";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/docs/portfolios/sample/[file]/route";
import { SAMPLE_HEADER, SAMPLE_ORDINARY, samplePortfolio } from "@/lib/batches";
import { checkReference } from "@/lib/cadastral-reference";
import { scenarioOf } from "@/lib/enrichment/sources/sandbox";
import { firstSheetRows } from "@/lib/spreadsheets";
import { type TestApp, useTestApp } from "./support/app";
import { allItems, batchOf, postCsv, settled } from "./support/batches";

let t: TestApp;
let key: string;
useTestApp({ workers: true }, (ctx) => ({ t, key } = ctx));

const download = (file: string) =>
  GET(new Request(`http://finca.test/docs/portfolios/sample/${file}`), { params: Promise.resolve({ file }) });
const rowsOf = (csv: string) => parse(csv, { bom: true }) as string[][];

describe("the sample portfolio", () => {
  it("is a CSV of valid references, ordinary ones then one of each scenario, new at each download", async () => {
    const answer = await download("portfolio.csv");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const [header, ...rows] = rowsOf(await answer.text());
    expect(header).toEqual([...SAMPLE_HEADER]);
    expect(rows.map(([reference]) => checkReference(reference!).ok)).toEqual(rows.map(() => true));
    expect(rows.map(([reference]) => scenarioOf(reference!))).toEqual([
      ...Array(SAMPLE_ORDINARY).fill(null),
      "9100",
      "9200",
      "9300",
      "9404",
    ]);
    expect(new Set(rows.map(([reference]) => reference!.slice(0, 14))).size).toBe(rows.length);
    const [, ...again] = rowsOf(await (await download("portfolio.csv")).text());
    expect(again.map(([r]) => r)).not.toEqual(rows.map(([r]) => r));
    expect((await download("portfolio.ods")).status).toBe(404);
  });

  it("is an XLSX of the same rows", async () => {
    const answer = await download("portfolio.xlsx");
    expect(answer.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    const csv = new TextDecoder().decode(await samplePortfolio("csv", "seed"));
    const sheet: string[][] = [];
    for await (const row of firstSheetRows(Readable.from(Buffer.from(await samplePortfolio("xlsx", "seed")))))
      sheet.push(row.values);
    expect(sheet).toEqual(rowsOf(csv));
  });

  it("is taken by the API as it is, and its items end as their scenarios say", async () => {
    const csv = await (await download("portfolio.csv")).text();
    const res = await t.api.createBatch(postCsv(csv, { "X-API-Key": key }));
    expect(res.status).toBe(202);
    const batch = await batchOf(res);
    expect(batch.counts).toMatchObject({ total: SAMPLE_ORDINARY + 4, invalid: 0, duplicate: 0 });
    const done = await settled(t, key, batch.batch_id);
    expect(done.counts).toMatchObject({ enriched: SAMPLE_ORDINARY + 2, partially_enriched: 1, not_found: 1 });
    const items = await allItems(t, key, batch.batch_id);
    expect(items.map((i) => i.external_id)).toEqual(
      rowsOf(csv)
        .slice(1)
        .map(([, id]) => id),
    );
  });
});
