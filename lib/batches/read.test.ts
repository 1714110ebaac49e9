// Workbook readers are capped per partner and per process: a partner past its cap, or any partner
// once the process's readers are all busy, is refused at once with a 429 naming the cap; a reader
// ended by its request's abort frees its slot. A partner's CSV files are parsed one at a time.
// CSV files are parsed in reader threads: an aborted request stops its job there.
import { expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { excel, readersRunning } from "@/lib/spreadsheets";
import { fileLimitsOf, fileReaders, previewFile, readFile, type FileReaders } from "./read";

const limits = fileLimitsOf(loadConfig({}));

async function workbook(): Promise<Uint8Array> {
  const ExcelJS = await excel();
  const book = new ExcelJS.Workbook();
  book.addWorksheet("Portfolio").addRows([["cadastral_reference"], ["2749704YJ0624N0001DI"]]);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

/** A preview whose upload stops half way and never ends: its reader holds its slot until aborted. */
function stalled(bytes: Uint8Array, readers: FileReaders, partnerId: string) {
  const gone = new AbortController();
  async function* body() {
    yield bytes.subarray(0, bytes.length >> 1);
    await new Promise(() => {});
  }
  const preview = previewFile("xlsx", body(), limits, { signal: gone.signal, readers, partnerId });
  return { preview: preview.catch((e: unknown) => e), abort: () => gone.abort(new Error("the client went away")) };
}

async function* once(bytes: Uint8Array) {
  yield bytes;
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e,
  );

it("caps workbook readers per partner and per process, and frees a slot when its request is aborted", async () => {
  const readers = fileReaders({
    WORKBOOK_WORKERS: 2,
    WORKBOOK_WORKERS_PER_PARTNER: 1,
    WORKBOOK_CPU_SECONDS: 30,
    CSV_WORKERS: 1,
  });
  const bytes = await workbook();
  const read = (partnerId: string) => previewFile("xlsx", once(bytes), limits, { readers, partnerId });
  const a = stalled(bytes, readers, "a");
  // The partner's second workbook while its first is read: refused, naming the cap.
  expect(await refusal(read("a"))).toMatchObject({
    code: "rate_limited",
    detail: "At most 1 of your workbooks are read at once: try again when the one being read is done.",
  });
  // Another partner still has the process's second reader...
  const b = stalled(bytes, readers, "b");
  while (readersRunning() < 2) await new Promise((r) => setTimeout(r, 10));
  // ...and with both in use, a third partner is refused.
  expect(await refusal(read("c"))).toMatchObject({
    code: "rate_limited",
    detail: "The server is reading as many workbooks as it may at once (2): try again in a moment.",
  });
  // A request aborted ends its reader and gives its slot back.
  a.abort();
  expect(await a.preview).toMatchObject({ message: "the client went away" });
  expect(await read("a")).toMatchObject({ format: "xlsx", total: 1 });
  expect(await read("c")).toMatchObject({ total: 1 });
  b.abort();
  await b.preview;
  for (let i = 0; i < 200 && readersRunning() > 0; i++) await new Promise((r) => setTimeout(r, 25));
  expect(readersRunning()).toBe(0);
});

it("applies the row limits to a workbook's rows too", async () => {
  const ExcelJS = await excel();
  const book = new ExcelJS.Workbook();
  book.addWorksheet("P").addRows([
    ["cadastral_reference", "note"],
    ["2749704YJ0624N0001DI", "n".repeat(2_000)],
  ]);
  const bytes = new Uint8Array(await book.xlsx.writeBuffer());
  const readers = fileReaders({
    WORKBOOK_WORKERS: 1,
    WORKBOOK_WORKERS_PER_PARTNER: 1,
    WORKBOOK_CPU_SECONDS: 30,
    CSV_WORKERS: 1,
  });
  const small = { ...limits, maxFieldChars: 1_000 };
  expect(await refusal(previewFile("xlsx", once(bytes), small, { readers, partnerId: "a" }))).toMatchObject({
    code: "validation_error",
    errors: [{ line: 2, detail: expect.stringMatching(/at most 1000 a field/) }],
  });
  // The slot was given back: the same workbook under the default limits reads.
  expect(await previewFile("xlsx", once(bytes), limits, { readers, partnerId: "a" })).toMatchObject({
    total: 1,
  });
});

it("parses one CSV of a partner at a time: the next waits its turn, another partner's does not", async () => {
  const readers = fileReaders(loadConfig({}));
  const csv = new TextEncoder().encode("refcat\n2749704YJ0624N0001DI\n");
  let finish = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));
  async function* slow() {
    yield csv.subarray(0, 10);
    await finished;
    yield csv.subarray(10);
  }
  const first = previewFile("csv", slow(), limits, { readers, partnerId: "a" });
  let second: unknown = null;
  const next = previewFile("csv", once(csv), limits, { readers, partnerId: "a" }).then((p) => (second = p));
  expect(await previewFile("csv", once(csv), limits, { readers, partnerId: "b" })).toMatchObject({ total: 1 });
  expect(second).toBeNull();
  finish();
  expect(await first).toMatchObject({ total: 1 });
  await next;
  expect(second).toMatchObject({ total: 1 });
  expect(readers.csvTurns.size).toBe(0);
});

it("parses CSV off the event loop: a request aborted while its body arrives stops its job; wide rows are read", async () => {
  const readers = fileReaders(loadConfig({}));
  const gone = new AbortController();
  const csv = new TextEncoder().encode(`refcat${",".repeat(900)}\n2749704YJ0624N0001DI${",x".repeat(900)}\n`);
  async function* stalledBody() {
    yield csv;
    await new Promise(() => {});
  }
  const stalledPreview = previewFile("csv", stalledBody(), limits, { readers, partnerId: "a", signal: gone.signal });
  const refused = refusal(stalledPreview);
  while (readers.csv.reading() < 1) await new Promise((r) => setTimeout(r, 10));
  gone.abort(new Error("the client went away"));
  expect(await refused).toMatchObject({ message: "the client went away" });
  expect(readers.csv.reading()).toBe(0);
  // The same file whole: the preview's rows as read, and a submission's items from the wanted fields only.
  expect(await previewFile("csv", once(csv), limits, { readers, partnerId: "a" })).toMatchObject({
    total: 1,
    rows: [expect.arrayContaining(["2749704YJ0624N0001DI", "x"])],
  });
  expect(await readFile("csv", once(csv), limits, { readers, partnerId: "a" })).toMatchObject({
    items: [{ reference: "2749704YJ0624N0001DI", externalId: null }],
  });
});

// One reader (issue 43 §2): a sheet and the same sheet saved as CSV give the same items, previews
// and refusals. Rows constructed as an export writes them: a title, a date line, then the table.
it("reads a workbook and its CSV alike: the header below titles, the same preview and refusals", async () => {
  const readers = fileReaders(loadConfig({}));
  const context = { readers, partnerId: "a" };
  const sheet = (header: string[]) => [
    ["Cartera hipotecaria"],
    ["Exportado el 28/11/2026"],
    header,
    ...Array.from({ length: 7 }, (_, i) => [`2749704YJ0624N000${i}DI`, `L-${i}`, String(i * 1000)]),
  ];
  const asCsv = (rows: string[][]) => new TextEncoder().encode(rows.map((r) => r.join(";")).join("\r\n"));
  const asXlsx = async (rows: string[][]) => {
    const ExcelJS = await excel();
    const book = new ExcelJS.Workbook();
    book.addWorksheet("Book").addRows(rows);
    return new Uint8Array(await book.xlsx.writeBuffer());
  };
  const both = async (rows: string[][]) => [["csv", asCsv(rows)] as const, ["xlsx", await asXlsx(rows)] as const];

  for (const [format, bytes] of await both(sheet(["Referencia catastral", "external_id", "Saldo"]))) {
    const { items } = await readFile(format, once(bytes), limits, context);
    expect(items, format).toHaveLength(7);
    expect(items[0], format).toEqual({ reference: "2749704YJ0624N0000DI", externalId: "L-0" });
    expect(await previewFile(format, once(bytes), limits, context), format).toMatchObject({
      headerLine: 3,
      referenceColumn: 0,
      externalIdColumn: 1,
      total: 7,
      rows: [["2749704YJ0624N0000DI", "L-0", "0"], ...Array(4).fill(expect.any(Array))],
    });
  }

  // No column recognised: a preview offers the likely header to pick from; a submission is refused
  // (in the same words for both), unless it names the columns.
  const unnamed = sheet(["Ref. catastral", "Préstamo", "Saldo"]);
  const answers: unknown[] = [];
  for (const [format, bytes] of await both(unnamed)) {
    expect(await previewFile(format, once(bytes), limits, context), format).toMatchObject({
      header: ["Ref. catastral", "Préstamo", "Saldo"],
      headerLine: 3,
      referenceColumn: null,
      externalIdColumn: null,
      total: 7,
      rows: [["2749704YJ0624N0000DI", "L-0", "0"], ...Array(4).fill(expect.any(Array))],
    });
    answers.push(await refusal(readFile(format, once(bytes), limits, context)));
    const choice = { reference: "REF. CATASTRAL", externalId: "prestamo" };
    expect((await readFile(format, once(bytes), limits, context, choice)).items[6], format).toEqual({
      reference: "2749704YJ0624N0006DI",
      externalId: "L-6",
    });
  }
  expect(answers[0]).toMatchObject({ code: "validation_error", detail: expect.stringMatching(/refcat \(any case\)/) });
  expect(answers[1]).toEqual(answers[0]);
});
