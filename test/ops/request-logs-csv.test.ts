// The Logs download: every request the list's filters select, newest first, across pages, as the
// reader may see it, never another partner's. Rows are constructed in the shape the writer stores.
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "@/lib/db";
import { createPartner } from "@/lib/partners";
import { REQUEST_LOG_CSV_HEADER, requestLogsCsv, type RequestLogFilter } from "@/lib/request-logs";
import { createTestDatabase, type TestDatabase } from "../support/database";

let testDb: TestDatabase;
let partnerId: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  partnerId = (await createPartner(testDb.database.db, "Logs partner")).id;
  const other = (await createPartner(testDb.database.db, "Other partner")).id;
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 10, minute));
  const row = (owner: string, requestId: string, status: number, minute: number, query: string | null = null) => ({
    partnerId: owner,
    mode: "test" as const,
    requestId,
    method: "GET",
    path: "/api/v1/partner-api/properties",
    status,
    durationMs: 12,
    at: at(minute),
    query,
  });
  await testDb.database.db
    .insert(schema.requestLogs)
    .values([
      row(partnerId, "req_a", 200, 1),
      row(partnerId, "req_b", 404, 2, "=1+1"),
      row(partnerId, "req_c", 200, 3),
      row(other, "req_theirs", 200, 4),
    ]);
});
afterAll(() => testDb.drop());

const csvOf = async (filter: Partial<RequestLogFilter> = {}) => {
  const stream = requestLogsCsv(testDb.database.db, { partnerId, mode: "test", role: "owner", ...filter }, 2);
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
  expect(text.startsWith("\uFEFF")).toBe(true);
  return parse(text.slice(1)) as string[][];
};
const at = (name: string) => REQUEST_LOG_CSV_HEADER.indexOf(name);

describe("Logs CSV", () => {
  it("writes every page, newest first, the partner's own only, formulas neutralised", async () => {
    const [header, ...rows] = await csvOf();
    expect(header).toEqual(REQUEST_LOG_CSV_HEADER);
    expect(rows.map((r) => [r[at("request_id")], r[at("status")], r[at("query")], r[at("at")]])).toEqual([
      ["req_c", "200", "", "2026-11-28T10:03:00.000Z"],
      ["req_b", "404", "'=1+1", "2026-11-28T10:02:00.000Z"],
      ["req_a", "200", "", "2026-11-28T10:01:00.000Z"],
    ]);
  });

  it("applies the list's filters", async () => {
    const [, ...rows] = await csvOf({ status: "4xx" });
    expect(rows.map((r) => r[at("request_id")])).toEqual(["req_b"]);
  });
});
