// fast-check arbitraries for the partner API's inputs, shared by the fuzz tests. Cases that are
// valid or broken by construction say so, so a fuzz test can demand the exact outcome for them.
import fc from "fast-check";
import { checkLetters } from "@/lib/cadastral-reference";

const DIGITS = "0123456789";
const LETTERS = "ABCDEFGHIJKLMNÑOPQRSTUVWXYZ";
const chars = (alphabet: string, minLength: number, maxLength = minLength) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength, maxLength });

/** A 20-character unit reference with correct check letters, or a 14-character parcel reference. */
export const validReference = fc.oneof(
  fc
    .tuple(chars(DIGITS, 7), chars(LETTERS + DIGITS, 7), chars(DIGITS, 4))
    .map(([a, b, unit]) => a + b + unit + checkLetters(a + b + unit)),
  chars(DIGITS + LETTERS, 14),
);

/** A valid reference as a partner might type it: any case, spaces and hyphens anywhere, padded. */
export const typedReference = fc
  .tuple(
    validReference,
    fc.array(fc.tuple(fc.boolean(), fc.constantFrom("", "", "", " ", "-", " - ", "\u00a0")), {
      minLength: 20,
      maxLength: 20,
    }),
  )
  .map(([ref, decorations]) =>
    [...ref].map((ch, i) => (decorations[i]![0] ? ch.toLowerCase() : ch) + decorations[i]![1]).join(""),
  );

// Characters no reference may hold, even after upper-casing.
const FOREIGN = ["É", "Ç", "*", ".", "_", "/", "Ø", "@", "\u0000", "😀"];

/** References the contract answers with 400: wrong check letters, wrong length, foreign characters. */
export const brokenReference = fc.oneof(
  validReference
    .filter((ref) => ref.length === 20)
    .chain((ref) =>
      chars(LETTERS, 2)
        .filter((pair) => pair !== ref.slice(18))
        .map((pair) => ref.slice(0, 18) + pair),
    ),
  fc.oneof(chars(DIGITS + LETTERS, 0, 13), chars(DIGITS + LETTERS, 15, 19), chars(DIGITS + LETTERS, 21, 40)),
  fc
    .tuple(validReference, fc.nat(), fc.constantFrom(...FOREIGN))
    .map(([ref, at, ch]) => ref.slice(0, at % ref.length) + ch + ref.slice((at % ref.length) + 1)),
);

/** Header values as a server receives them: any bytes but CR, LF and NUL, read as Latin-1 (so UTF-8 arrives as mojibake). */
export const headerValue = fc.oneof(
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09))
      .map((c) => String.fromCharCode(c)),
    maxLength: 40,
  }),
  fc.string({ unit: "grapheme", maxLength: 20 }).map((s) => Buffer.from(s, "utf8").toString("latin1")),
  fc.constantFrom("", " ", "null", "undefined", "application/json"),
  fc.integer({ min: 1000, max: 12_000 }).map((n) => "k".repeat(n)),
);

/** An X-Request-Id the API must echo. */
export const saneRequestId = fc.stringMatching(/^[A-Za-z0-9._:@-]{1,128}$/);

/** Content-Type values the API accepts for a JSON body (the charset parameter has no meaning for JSON). */
export const jsonContentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "Application/JSON",
  "application/json;charset=UTF-8",
  "application/json ; charset=latin1",
  "application/json; foo=bar",
);

/** Content-Type values that are not JSON (or none): a 422. */
export const otherContentType = fc.oneof(
  fc.constantFrom(
    undefined,
    "",
    "text/plain",
    "application/jsonx",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "json",
    "application/problem+json",
  ),
  headerValue.map((v) => `text/${v}`),
);

/** Malformed percent-encodings: a path segment or query that cannot be decoded. */
export const brokenPercent = fc.constantFrom("%", "%z", "%zz", "%E0%A4%A", "%ff", "%C0%AF", "a%", "%%41");

/** Any JSON value, including ones that look like a create body. */
export const jsonBody = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(
    fc.constantFrom("cadastral_reference", "url", "description", "__proto__", "constructor", ""),
    fc.jsonValue(),
    { maxKeys: 3 },
  ),
);
