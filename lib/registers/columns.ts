// Matching a file's header to a dataset's fields. A field is found under one of the names the
// dataset expects, or under the name an operator's override gives it (`--columns map.json`, or the
// overrides folder: a publisher renames a column, the operator maps it, no code changes). A name
// that differs only in case, accents, spaces and punctuation, or a trailing number, is reported as
// a near match, never taken silently.
import { DomainError } from "@/lib/domain";
import type { Dataset } from "./datasets";

/** An expected column name → the name a file actually gives it. */
export type ColumnOverrides = Readonly<Record<string, string>>;

export interface ColumnMatch {
  field: string;
  /** The names the dataset expects (or the override's), the documented one first. */
  expected: readonly string[];
  /** The header name it was found under, or null. */
  found: string | null;
  /** Header names that are almost one of the expected names. */
  near: string[];
  /** Whether the file's layout needs it. */
  required: boolean;
  /** The name came from an override. */
  overridden: boolean;
}

export interface HeaderMatch {
  columns: ColumnMatch[];
  /** Required fields not found (empty: the header will do). */
  missing: string[];
}

/** Lower case, without accents, spaces or punctuation, without a trailing number. */
const loose = (name: string) =>
  name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "")
    .replace(/\d+$/, "");

/** An override's keys must be names the dataset expects: a typo is refused, naming what it could be. */
export function checkOverrides(dataset: Dataset, overrides: ColumnOverrides): void {
  const names = Object.values(dataset.columns).flat();
  for (const [key, value] of Object.entries(overrides)) {
    if (typeof value !== "string" || !value.trim())
      throw new DomainError("validation_error", `column override "${key}" must map to a column name`);
    if (!names.includes(key))
      throw new DomainError(
        "validation_error",
        `${dataset.id} expects no column "${key}"; it expects ${names.map((n) => `"${n}"`).join(", ")}`,
      );
  }
}

export function matchHeader(dataset: Dataset, header: readonly string[], overrides: ColumnOverrides): HeaderMatch {
  const same = dataset.caseInsensitive
    ? (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
    : (a: string, b: string) => a === b;
  const matches = Object.entries(dataset.columns).map(([field, names]) => {
    const override = names.map((n) => overrides[n]).find((n) => n !== undefined);
    const expected = override !== undefined ? [override] : names;
    const found = expected.map((name) => header.find((h) => same(h, name))).find((h) => h !== undefined) ?? null;
    const near = found === null ? header.filter((h) => expected.some((name) => loose(name) === loose(h))) : [];
    return { field, expected, found, near: [...new Set(near)], overridden: override !== undefined };
  });
  const has = (field: string) => matches.some((m) => m.field === field && m.found !== null);
  // The first layout the header completes; else the one it comes closest to (fewest missing, most found).
  const missing = (fields: readonly string[]) => fields.filter((f) => !has(f)).length;
  const found = (fields: readonly string[]) => fields.length - missing(fields);
  const closest = (a: readonly string[], b: readonly string[]) => missing(a) - missing(b) || found(b) - found(a);
  const layout = dataset.layouts.find((fields) => !missing(fields)) ?? [...dataset.layouts].sort(closest)[0]!;
  return {
    columns: matches.map((m) => ({ ...m, required: layout.includes(m.field) })),
    missing: layout.filter((f) => !has(f)),
  };
}

/** "the header lacks the columns "A", "B" (near: "a")" for a RegisterFileError. */
export function missingColumns(dataset: Dataset, match: HeaderMatch): string {
  const missing = match.columns.filter((c) => match.missing.includes(c.field));
  const names = missing.map(
    (c) => `"${c.expected[0]}"${c.near.length ? ` (near: ${c.near.map((n) => `"${n}"`).join(", ")})` : ""}`,
  );
  return `the header lacks the column${names.length > 1 ? "s" : ""} ${names.join(", ")} that ${dataset.id} needs`;
}
