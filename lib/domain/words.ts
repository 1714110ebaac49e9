// The words every area shares: modes, scopes, statuses, ratings and ids. Declared once here; the
// database schema, the engine, the domain areas and the HTTP layer all take them from this file.

/** Whether `value` is a word of the closed set `words` (a member of it, typed as one). */
export const isOneOf = <const T extends string>(words: readonly T[], value: unknown): value is T =>
  words.some((w) => w === value);

/** `value` as the word of `words` it is, or undefined when it is none of them. */
export const oneOf = <const T extends string>(words: readonly T[], value: unknown): T | undefined =>
  words.find((w) => w === value);

export const MODES = ["test", "live"] as const;
export type Mode = (typeof MODES)[number];

/** A partner's data in one mode: every partner-scoped read and write takes one. */
export interface Scope {
  partnerId: string;
  mode: Mode;
}

/** An organisation's roles (Stripe's), from most to least trusted; what each may do: roles.ts. */
export const TEAM_ROLES = ["owner", "admin", "developer", "viewer"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
/** Every account's role: a team role in a partner's organisation, or Finca's own operators (no partner). */
export const ROLES = [...TEAM_ROLES, "operator"] as const;
export type Role = (typeof ROLES)[number];

/** An organisation's live mode: none until an owner requests it, then an operator approves or refuses it. */
export const LIVE_ACCESS = ["none", "requested", "approved", "refused"] as const;
export type LiveAccess = (typeof LIVE_ACCESS)[number];

export const PROPERTY_STATUSES = ["enriching", "enriched", "partially_enriched", "not_found"] as const;
export type PropertyStatus = (typeof PROPERTY_STATUSES)[number];

export const ITE_STATUSES = ["pending", "found", "not_found", "not_required", "unsupported", "failed"] as const;
export type IteStatus = (typeof ITE_STATUSES)[number];

/** The three enrichment sources, in the order the engine asks them. */
export const SOURCES = ["cadastre", "energy_certificate", "ite"] as const;
export type SourceName = (typeof SOURCES)[number];

/** pending: not answered yet, retried; completed: data or a definite answer; failed: retries exhausted. */
export const SOURCE_STATUSES = ["pending", "completed", "failed"] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const DELIVERY_TRIGGERS = ["scheduled", "manual_replay", "test"] as const;
export type DeliveryTrigger = (typeof DELIVERY_TRIGGERS)[number];

/** The events an endpoint may subscribe to (`event_types`); `webhook.test` reaches every endpoint. */
export const EVENT_TYPES = ["property.enriched", "batch.completed"] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const isEventType = (type: string): type is EventType => isOneOf(EVENT_TYPES, type);

export const RATINGS = ["A", "B", "C", "D", "E", "F", "G"] as const;
export type Rating = (typeof RATINGS)[number];
/** One value per letter, A to G in order: a record the compiler sees whole. */
export const byRating = <V>(value: (rating: Rating, index: number) => V): Record<Rating, V> => ({
  A: value("A", 0),
  B: value("B", 1),
  C: value("C", 2),
  D: value("D", 3),
  E: value("E", 4),
  F: value("F", 5),
  G: value("G", 6),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids arrive in paths and forms: anything that is not a UUID names nothing (a 404, not a cast error). */
export const isUuid = (id: string): boolean => UUID.test(id);

// Control characters (C0, DEL, C1): PostgreSQL text cannot hold a NUL, and none belongs in a name,
// an email or a URL someone typed.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
export const hasControl = (value: string): boolean => CONTROL.test(value);
export const withoutControl = (value: string): string => value.replace(new RegExp(CONTROL.source, "g"), "");

/** What a register index record holds: an energy certificate or a building inspection. */
export const REGISTER_RECORD_KINDS = ["certificate", "inspection"] as const;

/** The cadastre index's sources: Catastro's INSPIRE downloads and its alphanumeric CAT files. */
export const CADASTRE_SOURCES = ["catastro-inspire", "catastro-cat"] as const;
export type CadastreSource = (typeof CADASTRE_SOURCES)[number];
export type RegisterRecordKind = (typeof REGISTER_RECORD_KINDS)[number];

/** What the product emails (lib/email): one template each. */
export const EMAIL_KINDS = [
  "invitation",
  "password_reset",
  "live_access_decided",
  "endpoint_failing",
  "endpoint_disabled",
  "portfolio_completed",
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/**
 * An email's state in the outbox: queued (a job will send it), sent (the SMTP server took it), failed
 * (retries exhausted), held (no SMTP_URL: it stays for operators to read in the console).
 */
export const EMAIL_STATUSES = ["queued", "sent", "failed", "held"] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];
