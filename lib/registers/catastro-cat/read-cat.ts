// Catastro's alphanumeric bulk data (the "CAT" exchange format of non-protected data): one record of
// 1,000 characters per line, its type in the first two. Field positions are the DGC's specification
// as two independent parsers encode it (oscarfonts/catastro2postgis `catstruct.py`, lfern/catparser;
// see format.md beside this file): 1-based start and length below, as the specification writes them.
// Records 11 (parcel), 13 (construction unit), 14 (construction) and 15 (property unit) are read; 01
// (header) gives the file's date, 90 (trailer) the count of each type, which the reader checks.
import { checkLetters } from "@/lib/cadastral-reference";
import { decodeText } from "../decode";
import { textLines } from "../lines";

/** A field at 1-based `start`, `length` characters long, trimmed. */
const field = (line: string, start: number, length: number) => line.slice(start - 1, start - 1 + length).trim();

/** A numeric field: null when blank or all zeros where zero means "not given" (`zeroIsNull`). */
function num(line: string, start: number, length: number, zeroIsNull = false): number | null {
  const text = field(line, start, length);
  if (!/^\d+$/.test(text)) return null;
  const value = Number(text);
  return zeroIsNull && value === 0 ? null : value;
}

/** `YYYYMMDD` as an ISO date, or null when it is no calendar date. */
function isoDate(text: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!match) return null;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  const parsed = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(iso) ? iso : null;
}

/** A year the register gives, or null (blank, zeros, or no plausible year). */
function year(line: string, start: number): number | null {
  const value = num(line, start, 4, true);
  return value !== null && value >= 1000 && value <= 2100 ? value : null;
}

/** What every record carries: its municipality as Catastro codes it (delegation and DGC municipality). */
interface CatBase {
  municipality: string;
  parcel: string;
}

export interface CatParcel extends CatBase {
  type: 11;
  provinceIne: string;
  municipalityIne: string;
  municipalityDgc: string;
  municipalityName: string;
  streetType: string;
  streetName: string;
  number: number | null;
  postalCode: string | null;
  landAreaM2: number | null;
  builtAreaM2: number | null;
  builtAboveGroundM2: number | null;
  builtBelowGroundM2: number | null;
  /** Coordinates in the file's reference system (hundredths of a unit in the record), and its EPSG code. */
  x: number | null;
  y: number | null;
  epsg: string | null;
}

export interface CatConstructionUnit extends CatBase {
  type: 13;
  unitCode: string;
  yearBuilt: number | null;
  /** E exact, + or - before or after, C estimated (the specification's accuracy flag). */
  yearAccuracy: string | null;
  groundAreaM2: number | null;
}

export interface CatConstruction extends CatBase {
  type: 14;
  order: number | null;
  staircase: string;
  floor: string;
  door: string;
  useCode: string;
  reformKind: string | null;
  reformYear: number | null;
  effectiveYear: number | null;
  areaM2: number | null;
}

export interface CatUnit extends CatBase {
  type: 15;
  /** The 20-character unit reference (parcel, sequence and the two check letters). */
  reference: string;
  propertyClass: string;
  provinceIne: string;
  municipalityIne: string;
  postalCode: string | null;
  staircase: string;
  floor: string;
  door: string;
  yearBuilt: number | null;
  useKey: string;
  builtAreaM2: number | null;
  /** Share of the parcel's common elements, in hundred-millionths (the record's unit) divided out to a fraction. */
  participation: number | null;
}

export type CatRecord = CatParcel | CatConstructionUnit | CatConstruction | CatUnit;

export interface CatHeader {
  generatedOn: string | null;
  periodFrom: string | null;
  periodTo: string | null;
  description: string;
}

/** A record type the importer reads; others (16 common elements, 17 crops) are counted and passed over. */
export const READ_TYPES = [11, 13, 14, 15] as const;

export type CatSkipReason = "short_record" | "long_line" | "unknown_type" | "bad_reference" | "bad_check_letters";

export type CatLine =
  | { kind: "record"; line: number; record: CatRecord }
  | { kind: "header"; line: number; header: CatHeader }
  | { kind: "trailer"; line: number; counts: Record<number, number | null> }
  | { kind: "other"; line: number; type: number }
  /** A line left out; `type` is its record type when it has one. */
  | { kind: "skip"; line: number; type: number | null; reason: CatSkipReason };

/**
 * The shortest line that holds every field read (record 15's participation ends at 470). Real files
 * pad every record to 1,000 characters; a line cut shorter than what is read is refused, not guessed.
 */
const MIN_CHARS: Record<number, number> = { 11: 352, 13: 307, 14: 90, 15: 470 };

/** A record's length: a longer line is two records run together or no CAT file, and is not guessed at. */
const RECORD_CHARS = 1000;

const PARCEL = /^[0-9A-ZÑ]{14}$/;

/** One line of a CAT file, read. */
export function readCatLine(text: string, line: number): CatLine {
  const type = Number(text.slice(0, 2));
  if (!/^\d\d/.test(text)) return { kind: "skip", line, type: null, reason: "unknown_type" };
  if (type === 1)
    return {
      kind: "header",
      line,
      header: {
        generatedOn: isoDate(field(text, 40, 8)),
        periodFrom: isoDate(field(text, 121, 8)),
        periodTo: isoDate(field(text, 129, 8)),
        description: field(text, 58, 39),
      },
    };
  if (type === 90)
    return {
      kind: "trailer",
      line,
      counts: { 11: num(text, 10, 7), 13: num(text, 24, 7), 14: num(text, 31, 7), 15: num(text, 38, 7) },
    };
  const min = MIN_CHARS[type];
  if (min === undefined) return { kind: "other", line, type };
  if (text.length < min) return { kind: "skip", line, type, reason: "short_record" };
  const parcel = field(text, 31, 14);
  if (!PARCEL.test(parcel)) return { kind: "skip", line, type, reason: "bad_reference" };
  const record = readRecord(type, text, { municipality: field(text, 24, 2) + field(text, 26, 3), parcel });
  if (record === "bad_check_letters") return { kind: "skip", line, type, reason: record };
  return { kind: "record", line, record };
}

function readRecord(type: number, text: string, base: CatBase): CatRecord | "bad_check_letters" {
  const { parcel } = base;
  if (type === 11) {
    const x = num(text, 334, 9);
    const y = num(text, 343, 10);
    return {
      type: 11,
      ...base,
      provinceIne: field(text, 51, 2),
      municipalityIne: field(text, 81, 3),
      municipalityDgc: field(text, 26, 3),
      municipalityName: field(text, 84, 40),
      streetType: field(text, 159, 5),
      streetName: field(text, 164, 25),
      number: num(text, 189, 4, true),
      postalCode: field(text, 241, 5) || null,
      landAreaM2: num(text, 296, 10),
      builtAreaM2: num(text, 306, 7),
      builtAboveGroundM2: num(text, 313, 7),
      builtBelowGroundM2: num(text, 320, 7),
      x: x === null || y === null || (x === 0 && y === 0) ? null : x / 100,
      y: x === null || y === null || (x === 0 && y === 0) ? null : y / 100,
      epsg: field(text, 667, 10) || null,
    };
  }
  if (type === 13)
    return {
      type: 13,
      ...base,
      unitCode: field(text, 45, 4),
      yearBuilt: year(text, 296),
      yearAccuracy: field(text, 300, 1) || null,
      groundAreaM2: num(text, 301, 7),
    };
  if (type === 14)
    return {
      type: 14,
      ...base,
      order: num(text, 45, 4),
      staircase: field(text, 63, 2),
      floor: field(text, 65, 3),
      door: field(text, 68, 3),
      useCode: field(text, 71, 3),
      reformKind: field(text, 74, 1) || null,
      reformYear: year(text, 75),
      effectiveYear: year(text, 79),
      areaM2: num(text, 84, 7),
    };
  const first18 = parcel + field(text, 45, 4);
  const letters = text.slice(48, 50);
  if (first18.length !== 18 || checkLetters(first18) !== letters) return "bad_check_letters";
  const participation = num(text, 462, 9);
  return {
    type: 15,
    ...base,
    reference: first18 + letters,
    propertyClass: field(text, 29, 2),
    provinceIne: field(text, 93, 2),
    municipalityIne: field(text, 123, 3),
    postalCode: field(text, 283, 5) || null,
    staircase: field(text, 250, 2),
    floor: field(text, 252, 3),
    door: field(text, 255, 3),
    yearBuilt: year(text, 372),
    useKey: field(text, 428, 1),
    builtAreaM2: num(text, 442, 10),
    participation: participation === null ? null : participation / 1e8,
  };
}

/** A file's lines, read one by one as its bytes stream (Latin-1 or UTF-8, decided from the bytes). */
export async function* readCatFile(bytes: AsyncIterable<Buffer>): AsyncGenerator<CatLine> {
  for await (const line of textLines(decodeText(bytes).chunks, RECORD_CHARS)) {
    if (line.tooLong || line.text.length > RECORD_CHARS)
      yield { kind: "skip", line: line.number, type: null, reason: "long_line" };
    else if (line.text.trim()) yield readCatLine(line.text, line.number);
  }
}
