// Street addresses reduced to one key, so that a register published by address (a city's building
// inspections) meets the property through its Catastro address. Catastro writes a street type code
// ("CL"), the name without particles ("ALCALA") and the number ("123"); cities write "Calle de
// Alcalá, 123". Both become `28079|CALLE|ALCALA|123`: municipality (INE), street type, name, number.

/** Catastro's street-type codes and the words and abbreviations registers write, by the type they mean. */
const STREET_TYPES: Record<string, readonly string[]> = {
  CALLE: ["CL", "C", "CALLE", "CARRER", "RUA"],
  AVENIDA: ["AV", "AVDA", "AVD", "AVENIDA", "AVINGUDA"],
  PLAZA: ["PZ", "PL", "PLZA", "PLAZA", "PLACA"],
  PASEO: ["PS", "Pº", "PO", "PASEO", "PASSEIG"],
  CARRETERA: ["CR", "CTRA", "CARRETERA"],
  RONDA: ["RD", "RONDA"],
  TRAVESIA: ["TR", "TRVA", "TRAVESIA", "TRAVESSERA"],
  GLORIETA: ["GL", "GTA", "GLORIETA"],
  CAMINO: ["CM", "CMNO", "CAMINO", "CAMI"],
  PASAJE: ["PJ", "PSJE", "PASAJE", "PASSATGE"],
};
const TYPE_OF = new Map(Object.entries(STREET_TYPES).flatMap(([type, words]) => words.map((w) => [w, type] as const)));

/** Words a city writes and Catastro leaves out of street names. */
const PARTICLES = new Set(["DE", "DEL", "LA", "LAS", "LOS", "EL", "D", "L", "DELS", "LES", "ELS"]);

/** Upper case, without accents, punctuation as spaces ("Alcalá, 123" → "ALCALA 123"). */
const plain = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .replace(/[^A-Z0-9º]+/g, " ")
    .trim();

export const streetType = (text: string): string => {
  const word = plain(text).replace(/\s+/g, "");
  return TYPE_OF.get(word) ?? word;
};

export const streetName = (text: string): string =>
  plain(text)
    .split(" ")
    .filter((word) => word && !PARTICLES.has(word))
    .join(" ");

/** The building number: its leading digits ("12 BIS" → "12"); null for none ("S/N", "0"). */
export function streetNumber(text: string): string | null {
  const number = Number.parseInt(/^\s*(\d+)/.exec(text)?.[1] ?? "", 10);
  return number > 0 ? String(number) : null;
}

export interface StreetAddress {
  /** INE code, 5 digits. */
  municipalityCode: string;
  type: string;
  name: string;
  number: string;
}

/** The key both sides are filed under; null when a part is missing (no street, no number). */
export function addressKey(address: StreetAddress): string | null {
  const type = streetType(address.type);
  const name = streetName(address.name);
  const number = streetNumber(address.number);
  if (!/^\d{5}$/.test(address.municipalityCode) || !name || !number) return null;
  return [address.municipalityCode, type, name, number].join("|");
}

/**
 * A street address written in one field ("CALLE DE SAN RESTITUTO 72", "Cl San Restituto, 72 Bis")
 * split into type, name and number: the type is the first word when it names one, the number the
 * last word that starts with a digit; null without a number.
 */
export function splitStreetAddress(text: string): { type: string; name: string; number: string } | null {
  const words = plain(text).split(" ").filter(Boolean);
  const at = words.findLastIndex((word, i) => i > 0 && /^\d/.test(word));
  if (at < 0) return null;
  const typed = TYPE_OF.has(words[0]!) ? 1 : 0;
  return { type: typed ? words[0]! : "", name: words.slice(typed, at).join(" "), number: words[at]! };
}
