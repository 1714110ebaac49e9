// The Property as partners see it (create, get, list items and the `data` of events), per the
// contract. One zod schema is its type, its validation in tests and its OpenAPI description.
// To add a member: declare it here, then fill it in the enrichment engine (lib/enrichment/engine.ts).
// Every member is present: null when its source has not answered or does not know it.
import { z } from "zod";
import { certificateExpired, certificateValidity, madridDay } from "./dates";
import { byRating, ITE_STATUSES, PROPERTY_STATUSES, RATINGS, SOURCE_STATUSES } from "./words";

export const Timestamp = z.string().meta({ format: "date-time", description: "RFC 3339" });
const DateOnly = z.string().meta({ format: "date", description: "YYYY-MM-DD" });

/** Catastro's main uses (`luso`), normalised. */
export const USES = [
  "residential",
  "commercial",
  "office",
  "industrial",
  "parking_storage",
  "hospitality_leisure",
  "public_services",
  "religious",
  "sports",
  "agricultural",
  "land",
  "other",
] as const;
export type Use = (typeof USES)[number];

/** Whether a certificate is of the unit itself or of its whole building (standing in for the unit). */
export const CERTIFICATE_SCOPES = ["unit", "building"] as const;
export type CertificateScope = (typeof CERTIFICATE_SCOPES)[number];

export const ITE_RESULTS = ["favourable", "unfavourable", "conditional"] as const;
export type IteResult = (typeof ITE_RESULTS)[number];

const Rating = z.enum(RATINGS);

export const VALID_UNTIL_SOURCES = ["registry", "derived", "unknown"] as const;

export const RatingProbabilities = z
  .object(byRating(() => z.number().min(0).max(1)))
  .meta({ id: "RatingProbabilities", description: "Probability of each letter; they sum to 1." });

/** The share of the probability a plausible range holds at least (contract: 80 %). */
export const PLAUSIBLE_MASS = 0.8;

export const PlausibleRange = z.object({ from: Rating, to: Rating }).meta({
  id: "PlausibleRange",
  description: "The narrowest run of consecutive letters holding at least 80 % of the estimate's probability.",
});
export type PlausibleRange = z.infer<typeof PlausibleRange>;

/**
 * The narrowest run of consecutive letters whose probabilities add up to at least 80 %; among runs
 * as narrow, the one holding the most. Letters are ordered, so a run (not any set) is what a reader
 * can act on: "between D and F".
 */
export function plausibleRange(p: Record<(typeof RATINGS)[number], number>): PlausibleRange {
  const total = RATINGS.reduce((s, r) => s + p[r], 0);
  // Floating point: 0.7 + 0.1 is 0.7999999999999999.
  const needed = PLAUSIBLE_MASS * total - 1e-9;
  for (let width = 1; width <= RATINGS.length; width++) {
    let best: { from: number; mass: number } | null = null;
    for (let from = 0; from + width <= RATINGS.length; from++) {
      const mass = RATINGS.slice(from, from + width).reduce((s, r) => s + p[r], 0);
      if (mass >= needed && (!best || mass > best.mass)) best = { from, mass };
    }
    if (best) return { from: RATINGS[best.from]!, to: RATINGS[best.from + width - 1]! };
  }
  return { from: RATINGS[0], to: RATINGS[RATINGS.length - 1]! };
}

export const EnergyCertificate = z
  .object({
    rating: Rating.meta({
      description:
        "Non-renewable primary energy letter: the label's headline (for an estimate, the most probable letter).",
    }),
    source: z
      .enum(["registry", "estimated"])
      .meta({ description: "registry: an official certificate was found; estimated: no certificate, modelled." }),
    emissions_rating: Rating.nullable().meta({
      description: "CO2 emissions letter; null when the registry does not give it, and for estimates.",
    }),
    primary_energy_kwh_m2_year: z
      .number()
      .nullable()
      .meta({ description: "Non-renewable primary energy, kWh/m²·year; null when not given, and for estimates." }),
    emissions_kg_co2_m2_year: z
      .number()
      .nullable()
      .meta({ description: "CO2 emissions, kg/m²·year; null when not given, and for estimates." }),
    issued_on: DateOnly.nullable().meta({
      description:
        "The day the certificate was issued; null when the registry does not give it (some give only a registration date: registered_on), and for estimates.",
    }),
    registered_on: DateOnly.nullable().meta({
      description:
        "The day the certificate entered the registry, when the registry gives that date; null otherwise, and for estimates.",
    }),
    valid_until: DateOnly.nullable().meta({
      description:
        "End of validity: the registry's, else issued_on + 10 years (+ 5 years for a G issued on or after 2021-06-02, RD 390/2021; 29 February becoming 28 February); null when neither is known (a registration date alone does not date the issue), and for estimates.",
    }),
    valid_until_source: z.enum(VALID_UNTIL_SOURCES).nullable().meta({
      description:
        "registry: the registry gives valid_until; derived: worked out from issued_on; unknown: neither given (e.g. only a registration date). Null for estimates.",
    }),
    expired: z.boolean().nullable().meta({
      description:
        "valid_until is before today (the date in Europe/Madrid); null when valid_until is unknown, and for estimates.",
    }),
    scope: z.enum(CERTIFICATE_SCOPES).nullable().meta({
      description:
        "unit: the unit's own certificate; building: the whole building's, standing in for the unit. Null for estimates.",
    }),
    registry: z.string().nullable().meta({ description: "Registry that holds the certificate; null for estimates." }),
    certificate_id: z
      .string()
      .nullable()
      .meta({ description: "The certificate's number in its registry, when given; null for estimates." }),
    probabilities: RatingProbabilities.nullable().meta({
      description: "Estimates only: the model's probability of each letter; null for registry certificates.",
    }),
    confidence: z
      .enum(["medium", "low", "very_low"])
      .nullable()
      .meta({ description: "Estimates only: how much to trust the letter; null for registry certificates." }),
    basis: z.string().nullable().meta({
      description:
        "Estimates only: what the estimate rests on (inputs and the published data behind the model); null for registry certificates.",
    }),
    plausible_range: PlausibleRange.nullable().meta({
      description:
        "Estimates only: the narrowest run of consecutive letters holding at least 80 % of the probability; null for registry certificates.",
    }),
  })
  .meta({ id: "EnergyCertificate" });
export type EnergyCertificate = z.infer<typeof EnergyCertificate>;

/**
 * A certificate as stored: those written before registered_on and valid_until_source lack them, and
 * estimates written before plausible_range lack it.
 */
export const StoredCertificate = EnergyCertificate.extend({
  registered_on: EnergyCertificate.shape.registered_on.optional(),
  valid_until_source: EnergyCertificate.shape.valid_until_source.optional(),
  plausible_range: EnergyCertificate.shape.plausible_range.optional(),
});
export type StoredCertificate = z.infer<typeof StoredCertificate>;

/**
 * The certificate as of `now`: `expired` changes with the date, so it is worked out whenever a
 * property is shown. One stored before `valid_until_source` existed whose end is its issue date +
 * 10 years (written as the year alone, 29 February included) had it derived: it is derived again
 * under today's rule (5 years for a G since RD 390/2021, real dates only).
 */
export function certificateAsOf(c: StoredCertificate | null, now: Date): EnergyCertificate | null {
  if (!c) return null;
  let validUntil = c.valid_until;
  let source = c.valid_until_source ?? null;
  if (c.valid_until_source === undefined && c.source === "registry") {
    const legacyDerived =
      c.issued_on !== null && c.valid_until === `${Number(c.issued_on.slice(0, 4)) + 10}${c.issued_on.slice(4)}`;
    const validity = certificateValidity({
      rating: c.rating,
      issuedOn: c.issued_on,
      validUntil: legacyDerived ? null : c.valid_until,
    });
    validUntil = validity.validUntil;
    source = validity.source;
  }
  // Spread: members added later travel as they are; the read puts them in the schema's order.
  return {
    ...c,
    registered_on: c.registered_on ?? null,
    valid_until: validUntil,
    valid_until_source: source,
    expired: c.source === "registry" ? certificateExpired(validUntil, now) : null,
    plausible_range: c.plausible_range ?? (c.probabilities ? plausibleRange(c.probabilities) : null),
  };
}

export const Ite = z
  .object({
    status: z.enum(ITE_STATUSES).meta({ description: "Equals ite_fetch_status." }),
    inspected_on: DateOnly.nullable().meta({
      description: "Date of the latest inspection on record; null when none is known.",
    }),
    result: z
      .enum(ITE_RESULTS)
      .nullable()
      .meta({ description: "Result of that inspection; null when the registry does not say." }),
    next_due_on: DateOnly.nullable().meta({
      description:
        "When the next inspection is due: the latest inspection + 10 years, or (none on record) the end of the year the building reaches its region's confirmed first-inspection age; null where no age is confirmed.",
    }),
    overdue: z.boolean().nullable().meta({
      description:
        "true when next_due_on is before today (the date in Europe/Madrid), false when it is today or later; null only when next_due_on is null.",
    }),
    registry: z
      .string()
      .nullable()
      .meta({ description: "Registry the record comes from; null for rules-only answers." }),
    reference: z.string().nullable().meta({ description: "The inspection's reference in that registry, when given." }),
  })
  .meta({ id: "Ite" });
export type Ite = z.infer<typeof Ite>;

/** Whether an inspection due on `nextDueOn` (YYYY-MM-DD) is overdue on `now`'s date in Spain; null when no date is known. */
export const iteOverdue = (nextDueOn: string | null, now: Date): boolean | null =>
  nextDueOn === null ? null : nextDueOn < madridDay(now);

/** The inspection as of `now` (overdue changes with the date, so it is worked out whenever a property is shown). */
export const iteAsOf = (ite: Ite | null, now: Date): Ite | null =>
  ite && {
    status: ite.status,
    inspected_on: ite.inspected_on,
    result: ite.result,
    next_due_on: ite.next_due_on,
    overdue: iteOverdue(ite.next_due_on, now),
    registry: ite.registry,
    reference: ite.reference,
  };

export const Unit = z
  .object({
    staircase: z.string().nullable(),
    floor: z.string().nullable().meta({ description: "As Catastro writes it: 00 ground, -1 basement, EN, PR, …" }),
    door: z.string().nullable(),
  })
  .meta({ id: "Unit" });
export type Unit = z.infer<typeof Unit>;

export const Location = z
  .object({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
  })
  .meta({ id: "Location", description: "WGS 84 decimal degrees of the parcel." });
export type Location = z.infer<typeof Location>;

export const SourceEnrichment = z
  .object({
    status: z.enum(SOURCE_STATUSES).meta({
      description:
        "pending: not finished, being retried; completed: data or a definite answer; failed: retries exhausted.",
    }),
    attempts: z.number().int(),
    updated_at: Timestamp,
    error: z.string().nullable().meta({ description: "Last error code while failing, else null." }),
    provider: z.string().nullable().meta({
      description:
        "Which register answered: catastro-ovc, icaen-socrata, gva-wfs, aragon-gaodcore, index:<dataset>, rules, estimate, sandbox…; null before any answer.",
    }),
    as_of: DateOnly.nullable().meta({
      description:
        "The publisher's date of the data used: an index copy's snapshot date (from the dataset's published metadata, else its latest record date, never the download day); the answer's date for a live register; null for rules, estimates and sandbox data.",
    }),
    retrieved_at: Timestamp.nullable().meta({
      description:
        "When Finca read it: imported the index copy, or asked the live register; null when nothing was read.",
    }),
    dataset: z
      .string()
      .nullable()
      .meta({ description: "The index dataset's id (index:<dataset> providers), else null." }),
    licence: z.string().nullable().meta({
      description: "The source's licence, e.g. CC-BY-4.0, or the publisher's terms' name; null when nothing was read.",
    }),
  })
  .meta({ id: "SourceEnrichment" });

/** The members the engine works out (everything but identity, status and times). */
export const PropertyData = z.object({
  address: z.string().nullable(),
  municipality: z.string().nullable(),
  province: z.string().nullable(),
  ccaa: z.string().nullable().meta({ description: "Autonomous community, derived from the province." }),
  year_built: z.number().int().nullable(),
  climate_zone: z.string().nullable().meta({ description: "CTE DB-HE 2019 climate zone, e.g. D3 or α3." }),
  energy_certificate: EnergyCertificate.nullable().meta({
    description:
      "null until the certificate source answers, and where neither a certificate nor an estimate exists (land, parking, unknown year).",
  }),
  ite_fetch_status: z.enum(ITE_STATUSES).default("pending"),
  ite: Ite.nullable().meta({ description: "null until the ITE source answers." }),
  use: z
    .enum(USES)
    .nullable()
    .meta({ description: "Main use, normalised from Catastro's; a parcel's is the use with the largest built area." }),
  use_label: z.string().nullable().meta({ description: "Catastro's own label (luso), e.g. Residencial." }),
  built_area_m2: z
    .number()
    .int()
    .nullable()
    .meta({ description: "Built surface of the unit; for a 14-character parcel, the sum over its units." }),
  plot_area_m2: z
    .number()
    .int()
    .nullable()
    .meta({ description: "Surface of the parcel (plot), when Catastro gives it." }),
  units_in_parcel: z.number().int().nullable().meta({ description: "Number of units in the parcel, when known." }),
  unit: Unit.nullable().meta({
    description: "Staircase, floor and door of a 20-character reference; null for parcels.",
  }),
  postal_code: z.string().nullable().meta({ description: "5 digits." }),
  municipality_code: z.string().nullable().meta({ description: "INE municipality code, 5 digits." }),
  location: Location.nullable().meta({ description: "null when the coordinates service did not answer." }),
});
export type PropertyData = z.infer<typeof PropertyData>;

/** The data members as stored: a certificate written before a member existed lacks it (certificateAsOf completes it). */
export const StoredPropertyData = PropertyData.extend({ energy_certificate: StoredCertificate.nullable() });
export type StoredPropertyData = z.infer<typeof StoredPropertyData>;

/** Every data member unknown: null, or its default where the schema gives one (ite_fetch_status). */
export const EMPTY_DATA: PropertyData = PropertyData.parse(
  Object.fromEntries(
    Object.entries(PropertyData.shape).map(([member, schema]) => [
      member,
      schema instanceof z.ZodDefault ? undefined : null,
    ]),
  ),
);

export const Property = z
  .object({
    property_id: z.uuid(),
    cadastral_reference: z.string(),
    status: z.enum(PROPERTY_STATUSES),
    ...PropertyData.shape,
    enrichment: z.object({
      cadastre: SourceEnrichment,
      energy_certificate: SourceEnrichment,
      ite: SourceEnrichment,
    }),
    attribution: z.array(z.string()).meta({
      description:
        "The notices the sources behind this Property's values require (the cadastre's source notice, each CC BY publisher's name), one per source, deduplicated; [] for sandbox data.",
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
    enriched_at: Timestamp.nullable(),
  })
  .meta({ id: "Property" });
export type Property = z.infer<typeof Property>;
