// A download's CSV, written by csv-stringify as pages of rows arrive: UTF-8 with a BOM (as the
// portfolio results, so that Excel reads accents), CRLF lines, and a cell a spreadsheet would run as
// a formula neutralised (the rows hold text from registers and from requests, not to be trusted).
import { stringify } from "csv-stringify/sync";

const lines = (rows: unknown[][]) => stringify(rows, { escape_formulas: true, record_delimiter: "windows" });

/** The header, then each page as the client reads it; cancelling the download ends `pages`. */
export function csvStream(header: readonly string[], pages: AsyncGenerator<unknown[][]>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) controller.enqueue(encoder.encode(`\uFEFF${lines([[...header]])}`));
      started = true;
      const next = await pages.next();
      if (next.done) return controller.close();
      if (next.value.length) controller.enqueue(encoder.encode(lines(next.value)));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}
