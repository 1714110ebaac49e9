import { createReadStream } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { type CatLine, readCatFile, readCatLine } from "./read-cat";

const SAMPLE = path.join(import.meta.dirname, "fixtures/28900-sample.CAT");

async function collect(bytes: AsyncIterable<Buffer>): Promise<CatLine[]> {
  const lines: CatLine[] = [];
  for await (const line of readCatFile(bytes)) lines.push(line);
  return lines;
}

/** A record of `type` with `fields` at their 1-based positions, padded to 1,000 characters. */
function record(type: number, fields: [number, string][]): string {
  const chars = [...String(type).padStart(2, "0").padEnd(1000, " ")];
  for (const [start, value] of fields) chars.splice(start - 1, value.length, ...value);
  return chars.join("");
}

describe("the CAT reader", () => {
  it("reads the sample's header, records and trailer at their lines", async () => {
    const lines = await collect(createReadStream(SAMPLE));
    expect(lines.map((l) => (l.kind === "record" ? l.record.type : l.kind))).toEqual([
      "header",
      11,
      11,
      13,
      13,
      14,
      14,
      14,
      15,
      15,
      15,
      "skip",
      "other",
      "trailer",
    ]);
    expect(lines[0]).toMatchObject({ kind: "header", header: { generatedOn: "2026-03-15", periodTo: "2026-03-15" } });
    expect(lines[1]).toMatchObject({
      line: 2,
      record: {
        parcel: "0847106VK4704F",
        municipalityIne: "079",
        municipalityDgc: "900",
        streetName: "ALCALÁ",
        number: 12,
        postalCode: "28009",
        landAreaM2: 512,
        x: 440123.45,
        y: 4474123.45,
        epsg: "25830",
      },
    });
    expect(lines[4]).toMatchObject({ record: { type: 13, yearBuilt: null, groundAreaM2: 0 } });
    expect(lines[7]).toMatchObject({ record: { type: 14, floor: "-1", useCode: "A", areaM2: 210 } });
    expect(lines[8]).toMatchObject({
      line: 9,
      record: {
        type: 15,
        reference: "0847106VK4704F0001OE",
        postalCode: "28009",
        floor: "00",
        door: "01",
        yearBuilt: 1968,
        useKey: "V",
        builtAreaM2: 92,
        participation: 0.325,
      },
    });
    expect(lines[11]).toEqual({ kind: "skip", line: 12, type: 15, reason: "bad_check_letters" });
    expect(lines[13]).toMatchObject({ kind: "trailer", counts: { 11: 2, 13: 2, 14: 3, 15: 4 } });
  });

  it("refuses a record cut short, an unknown line and a parcel that is no reference, each at its line", () => {
    expect(readCatLine(record(15, [[31, "0847106VK4704F"]]).slice(0, 300), 7)).toEqual({
      kind: "skip",
      line: 7,
      type: 15,
      reason: "short_record",
    });
    expect(readCatLine("hello", 3)).toEqual({ kind: "skip", line: 3, type: null, reason: "unknown_type" });
    expect(readCatLine(record(11, [[31, "0847106VK47"]]), 4)).toEqual({
      kind: "skip",
      line: 4,
      type: 11,
      reason: "bad_reference",
    });
  });

  it("reads blank and zero fields as unknown, not as zero years or coordinates", () => {
    const read = readCatLine(
      record(11, [
        [31, "0847106VK4704F"],
        [334, "000000000"],
        [343, "0000000000"],
      ]),
      1,
    );
    expect(read).toMatchObject({ kind: "record", record: { x: null, y: null, number: null, postalCode: null } });
  });

  it("decides the encoding from the bytes: the same record in UTF-8 reads the same", async () => {
    const line = record(11, [
      [31, "0847106VK4704F"],
      [164, "ALCALÁ"],
    ]);
    const [latin1] = await collect(Readable.from([Buffer.from(line, "latin1")]));
    const [utf8] = await collect(Readable.from([Buffer.from(line, "utf8")]));
    expect(latin1).toMatchObject({ record: { streetName: "ALCALÁ" } });
    expect(utf8).toMatchObject({ record: { streetName: "ALCALÁ" } });
  });

  it("keeps reading after a line far too long (a damaged file), reporting it at its line", async () => {
    const bytes = Buffer.from(`${"1".repeat(10_000)}\n${record(11, [[31, "0847106VK4704F"]])}\n`, "latin1");
    const lines = await collect(Readable.from([bytes]));
    expect(lines[0]).toEqual({ kind: "skip", line: 1, type: null, reason: "long_line" });
    expect(lines[1]).toMatchObject({ kind: "record", line: 2 });
  });
});
