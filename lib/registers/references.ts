// Cadastral references as certificate registries write them: with spaces, hyphens or dots inside,
// several in one field (commas, semicolons, slashes, "y"), 18 characters without the check
// letters, or 20 with wrong ones. What the index keeps of each: the 14-character parcel and, for a
// unit, its first 18 characters (parcel + unit number). Property references are validated on the
// way in (check letters included), so matching on the 18 loses nothing and survives a registry's
// typo in the letters; a certificate registered under the bare parcel is of the whole building.
import { checkLetters } from "@/lib/cadastral-reference";

export interface IndexKey {
  parcel: string;
  /** First 18 characters of the unit; null for the whole building. */
  unit: string | null;
}

const SEPARATORS = /[,;/|+&\n\r]+|\s+(?:Y|E|I)\s+/;
const NOISE = /[\s\-._'"()]+/g;
const CHARSET = /^[0-9A-ZÑ]+$/;

const parcel = (ref: string): IndexKey => ({ parcel: ref, unit: null });
const unit = (ref: string): IndexKey => ({ parcel: ref.slice(0, 14), unit: ref.slice(0, 18) });
/** A unit's 18 characters end in its 4-digit number. */
const unitShaped = (ref: string) => /^\d{4}$/.test(ref.slice(14, 18));

function keysOf(chunk: string): IndexKey[] {
  if (!CHARSET.test(chunk)) return [];
  if (chunk.length === 14) return [parcel(chunk)];
  if ((chunk.length === 18 || chunk.length === 20) && unitShaped(chunk)) return [unit(chunk)];
  // Several units written without a separator.
  if (chunk.length % 20 === 0)
    return Array.from({ length: chunk.length / 20 }, (_, i) => chunk.slice(i * 20, i * 20 + 20))
      .filter(unitShaped)
      .map(unit);
  // A unit followed by noise ("…0001DI BIS"): kept only when its check letters prove it a unit.
  if (chunk.length > 20 && unitShaped(chunk) && checkLetters(chunk.slice(0, 18)) === chunk.slice(18, 20))
    return [unit(chunk)];
  return [];
}

/** Every reference in a registry field, deduplicated, in order; [] when none is usable. */
export function indexKeys(field: string | null | undefined): IndexKey[] {
  if (!field) return [];
  const seen = new Set<string>();
  const keys: IndexKey[] = [];
  for (const chunk of field.normalize("NFC").toUpperCase().split(SEPARATORS)) {
    for (const key of keysOf(chunk.replace(NOISE, ""))) {
      const id = key.unit ?? key.parcel;
      if (!seen.has(id)) keys.push(key), seen.add(id);
    }
  }
  return keys;
}
