// Spanish cadastral references: normalisation, shape and the two check letters of a 20-character
// reference. Algorithm described in docs/cadastral-reference.md (source: python-stdnum, DGC manual).

export type ReferenceCheck =
  | { ok: true; reference: string; length: 14 | 20 }
  | { ok: false; reference: string; reason: "length" | "charset" | "check_letters" };

const WEIGHTS = [13, 15, 12, 5, 4, 17, 9, 21, 3, 7, 1];
const LETTERS = "MQWERTYUIOPASDFGHJKLBZX";
const CHARSET = /^[0-9A-ZÑ]*$/;

/** Trim, drop spaces and hyphens, upper-case (the contract's normalisation, before validation). */
export function normalizeReference(input: string): string {
  return input
    .trim()
    .replace(/[\s-]+/g, "")
    .normalize("NFC")
    .toUpperCase();
}

function value(ch: string): number {
  if (ch >= "0" && ch <= "9") return ch.charCodeAt(0) - 48;
  if (ch === "Ñ") return 15;
  const code = ch.charCodeAt(0);
  // Spanish alphabet order: A=1 … N=14, Ñ=15, O=16 … Z=27.
  return ch <= "N" ? code - 64 : code - 63;
}

function letter(chars: string): string {
  let sum = 0;
  for (let i = 0; i < WEIGHTS.length; i++) sum += value(chars[i]!) * WEIGHTS[i]!;
  return LETTERS[sum % 23]!;
}

/** The two check letters for the first 18 characters of a unit reference. */
export function checkLetters(first18: string): string {
  const unit = first18.slice(14, 18);
  return letter(first18.slice(0, 7) + unit) + letter(first18.slice(7, 14) + unit);
}

/** Normalises and validates a reference as the contract's 400 rule describes. */
export function checkReference(input: string): ReferenceCheck {
  const reference = normalizeReference(input);
  if (!CHARSET.test(reference)) return { ok: false, reference, reason: "charset" };
  if (reference.length === 14) return { ok: true, reference, length: 14 };
  if (reference.length !== 20) return { ok: false, reference, reason: "length" };
  if (checkLetters(reference) !== reference.slice(18)) return { ok: false, reference, reason: "check_letters" };
  return { ok: true, reference, length: 20 };
}

const REASONS = {
  length: "must be 14 (parcel) or 20 (unit) characters after removing spaces and hyphens",
  charset: "may contain only digits and the letters A-Z and Ñ",
  check_letters: "has wrong check letters (characters 19-20)",
} as const;

/** What is wrong with a reference, in the words the API and the portal show. */
export function referenceProblem(check: Extract<ReferenceCheck, { ok: false }>): string {
  return `The cadastral reference "${check.reference}" ${REASONS[check.reason]}.`;
}

/** The 4-digit unit number (characters 15-18) of a 20-character reference. */
export function unitNumber(reference: string): string | null {
  return reference.length === 20 ? reference.slice(14, 18) : null;
}
