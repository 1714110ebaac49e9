// Helpers for portfolio tests: batch requests (JSON or CSV) and waiting for a batch to complete.
import ExcelJS from "exceljs";
import { expect } from "vitest";
import { Batch, BatchItem } from "@/lib/domain";
import { BASE, get, type TestApp } from "./app";
import { eventually } from "./wait";

export function postCsv(csv: string | Uint8Array, headers: Record<string, string> = {}, query = ""): Request {
  return new Request(`${BASE}/batches${query}`, {
    method: "POST",
    headers: { "Content-Type": "text/csv", ...headers },
    body: typeof csv === "string" ? csv : new Blob([new Uint8Array(csv)]),
  });
}

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export function postXlsx(bytes: Uint8Array, headers: Record<string, string> = {}, query = ""): Request {
  return new Request(`${BASE}/batches${query}`, {
    method: "POST",
    headers: { "Content-Type": XLSX_TYPE, ...headers },
    body: new Blob([new Uint8Array(bytes)]),
  });
}

/** A workbook (constructed with exceljs, as a spreadsheet program writes one) of one sheet holding `rows`. */
export async function workbookOf(rows: unknown[][]): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet("Portfolio").addRows(rows);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

export function postJson(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${BASE}/batches`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A batch answer, checked against the contract's schema. */
export async function batchOf(res: Response): Promise<Batch> {
  const body = await res.json();
  return Batch.parse(body);
}

export async function getBatch(t: TestApp, key: string, id: string): Promise<Batch> {
  const res = await t.api.getBatch(get(`/batches/${id}`, { "X-API-Key": key }));
  expect(res.status).toBe(200);
  return batchOf(res);
}

/** Waits until the batch has `completed_at` (completed, or cancelled and settled). */
export async function settled(t: TestApp, key: string, id: string): Promise<Batch> {
  return eventually(`batch ${id} settled`, async () => {
    const batch = await getBatch(t, key, id);
    return batch.completed_at ? batch : null;
  });
}

/** Every item of the batch, through the API's pages. */
export async function allItems(t: TestApp, key: string, id: string): Promise<BatchItem[]> {
  const items: BatchItem[] = [];
  for (let after: number | null = 0; after !== null; ) {
    const res = await t.api.listBatchItems(
      get(`/batches/${id}/items?limit=1000&starting_after=${after}`, { "X-API-Key": key }),
    );
    expect(res.status).toBe(200);
    const page = (await res.json()) as { data: unknown[]; next_starting_after: number | null };
    items.push(...page.data.map((i) => BatchItem.parse(i)));
    after = page.next_starting_after;
  }
  return items;
}
