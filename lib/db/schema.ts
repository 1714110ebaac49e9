// The one database schema. Migrations in drizzle/migrations are generated from
// it with `npm run db:generate`; never edit a landed migration.
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  BATCH_ITEM_STATUSES,
  BATCH_STATUSES,
  DELIVERY_STATUSES,
  DELIVERY_TRIGGERS,
  EMAIL_KINDS,
  EMAIL_STATUSES,
  ITE_STATUSES,
  LIVE_ACCESS,
  MODES,
  PROPERTY_STATUSES,
  REGISTER_RECORD_KINDS,
  CADASTRE_SOURCES,
  ROLES,
  TEAM_ROLES,
  type BatchCounts,
  type EventType,
  SOURCE_STATUSES,
  SOURCES,
  type EnergyCertificate,
  type PropertyData,
} from "../domain";

/** The Property's members without a column of their own, in one jsonb column by their contract names (lib/properties maps them). */
export type PropertyDetails = Partial<PropertyData>;

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const createdAt = () => ts("created_at").notNull().defaultNow();

export const partners = pgTable("partners", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull().unique(),
  // Set only by the operator's bootstrap ("seed"): the seed partner is found by this, never by its
  // name, which anyone signing up could claim.
  systemRole: text("system_role").unique(),
  // Live mode: a new organisation has test mode only; its live keys neither authenticate nor can be
  // made until an operator approves the owner's request (lib/partners/live.ts).
  liveAccess: text("live_access", { enum: LIVE_ACCESS }).notNull().default("none"),
  liveRequest: jsonb("live_request").$type<{ company: string; contact: string; use: string }>(),
  liveRequestedAt: ts("live_requested_at"),
  liveDecidedAt: ts("live_decided_at"),
  createdAt: createdAt(),
});

export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  // null for operators (role operator) who belong to no partner.
  partnerId: uuid("partner_id").references(() => partners.id, { onDelete: "cascade" }),
  email: text("email").notNull().unique(),
  name: text("name"),
  passwordHash: text("password_hash").notNull(),
  role: text("role", { enum: ROLES }).notNull(),
  // Every session carries the version it was issued under; a sign-out, password or role change,
  // removal or disable bumps it, so every copy of an older cookie stops working at once.
  sessionVersion: integer("session_version").notNull().default(0),
  disabledAt: ts("disabled_at"),
  // Opt-in: an email when a portfolio of the organisation completes (the Account page).
  notifyPortfolioCompleted: boolean("notify_portfolio_completed").notNull().default(false),
  createdAt: createdAt(),
});

/**
 * A self-service password reset (the sign-in page's "Forgot your password?"): the emailed link's
 * token is stored hashed, works once and for PASSWORD_RESET_TTL_MINUTES.
 */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [index("password_resets_user").on(t.userId)],
);

/**
 * Every email the product sends (lib/email), written in the transaction of what causes it, with its
 * delivery state: a job sends it through SMTP_URL; without one it is held here, and operators read
 * it in the console (Outbox). The text of a message with a one-time link is dropped once sent.
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: EMAIL_KINDS }).notNull(),
    // The organisation it concerns (null: none yet, an operator's own account).
    partnerId: uuid("partner_id").references(() => partners.id, { onDelete: "cascade" }),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    body: text("body"),
    // Holds a one-time link (a reset, an invitation): its body goes once the SMTP server took it.
    secret: boolean("secret").notNull().default(false),
    status: text("status", { enum: EMAIL_STATUSES }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    // The Message-ID the SMTP server accepted.
    messageId: text("message_id"),
    createdAt: createdAt(),
    sentAt: ts("sent_at"),
  },
  (t) => [index("email_outbox_created").on(t.createdAt.desc(), t.id.desc())],
);

/**
 * One signed-in browser of a user: the session cookie names its row, so a user can see their
 * sessions and end one; a sign-out ends its own row only. The user's session version still ends
 * them all at once (password reset, removal, disable).
 */
export const userSessions = pgTable(
  "user_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // How the browser named itself and where it came from, for the user to tell sessions apart.
    userAgent: text("user_agent"),
    address: text("address"),
    createdAt: createdAt(),
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
    endedAt: ts("ended_at"),
  },
  (t) => [index("user_sessions_user").on(t.userId, t.createdAt)],
);

/**
 * The security history: who did what to a partner's account, keys, endpoints and team, and what
 * operators did. Append-only (the migration's trigger refuses updates); written in the transaction
 * of the change it records; never a key or a secret in it. Rows go after AUDIT_RETENTION_DAYS.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: ts("at").notNull().defaultNow(),
    // The order rows were written in: rows of one transaction share its now().
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    // Null for what concerns no partner (an operator's own account, a register refresh).
    partnerId: uuid("partner_id").references(() => partners.id, { onDelete: "cascade" }),
    // No foreign key: a removed user's rows stay as they were (a cascade would update them).
    actorUserId: uuid("actor_user_id"),
    // Who and what as they read at the time (an email, "API key finca_test_ab12…"; a key's name).
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    target: text("target"),
    address: text("address"),
    detail: jsonb("detail").$type<Record<string, string | number | boolean | null>>(),
  },
  (t) => [index("audit_events_partner_at").on(t.partnerId, t.at), index("audit_events_at").on(t.at)],
);

export const invitations = pgTable("invitations", {
  id: uuid("id").primaryKey().defaultRandom(),
  partnerId: uuid("partner_id")
    .notNull()
    .references(() => partners.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  email: text("email"),
  // The role the invited member joins with.
  role: text("role", { enum: TEAM_ROLES }).notNull().default("developer"),
  createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  expiresAt: ts("expires_at").notNull(),
  acceptedAt: ts("accepted_at"),
});

// Unsuccessful sign-in attempts per key (email, client address), for brute-force throttling.
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    key: text("key").notNull(),
    at: createdAt(),
  },
  (t) => [index("sign_in_failures_key_at").on(t.key, t.at)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: MODES }).notNull(),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    visibleStart: text("visible_start").notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    // A rolled key keeps working until then (Stripe's "roll key"); null: no expiry.
    expiresAt: ts("expires_at"),
  },
  (t) => [index("api_keys_partner").on(t.partnerId, t.mode)],
);

export const properties = pgTable(
  "properties",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: MODES }).notNull(),
    cadastralReference: text("cadastral_reference").notNull(),
    status: text("status", { enum: PROPERTY_STATUSES }).notNull().default("enriching"),
    address: text("address"),
    municipality: text("municipality"),
    province: text("province"),
    ccaa: text("ccaa"),
    yearBuilt: integer("year_built"),
    climateZone: text("climate_zone"),
    energyCertificate: jsonb("energy_certificate").$type<EnergyCertificate>(),
    iteFetchStatus: text("ite_fetch_status", { enum: ITE_STATUSES }).notNull().default("pending"),
    // The other members of the Property (use, surfaces, unit, location, ITE details...), as
    // PropertyDetails: a new member needs no column. Empty for properties written before them.
    details: jsonb("details").$type<PropertyDetails>().notNull().default({}),
    // Facts the cadastre gives that the Property does not expose but later steps need.
    facts: jsonb("facts").$type<Record<string, unknown>>().notNull().default({}),
    // Number of the durable enrichment run that may act on this property; a job carrying another
    // number is stale (a crashed run's retry after its successor was scheduled) and does nothing.
    enrichmentRun: integer("enrichment_run").notNull().default(1),
    // The Idempotency-Key of the create that made it (the request is its reference: the body has no other member).
    idempotencyKey: text("idempotency_key"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    enrichedAt: ts("enriched_at"),
  },
  (t) => [
    uniqueIndex("properties_partner_mode_ref").on(t.partnerId, t.mode, t.cadastralReference),
    index("properties_partner_mode_created").on(t.partnerId, t.mode, t.createdAt.desc(), t.id.desc()),
    uniqueIndex("properties_idempotency")
      .on(t.partnerId, t.mode, t.idempotencyKey)
      .where(sql`idempotency_key is not null`),
  ],
);

/**
 * An Idempotency-Key sent with a create of a reference the partner had registered already (answered
 * 200 with that property): kept so that the key's life answers the same again, and refuses another
 * reference, as a key that created a property does (that one lives on the property's row).
 */
export const propertyRepeatKeys = pgTable(
  "property_repeat_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: MODES }).notNull(),
    // Null once past its life (madeWithKey frees it), as the other keyed tables' keys.
    idempotencyKey: text("idempotency_key"),
    propertyId: uuid("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("property_repeat_keys_key")
      .on(t.partnerId, t.mode, t.idempotencyKey)
      .where(sql`idempotency_key is not null`),
    index("property_repeat_keys_created").on(t.partnerId, t.mode, t.createdAt),
  ],
);

export const enrichmentSources = pgTable(
  "enrichment_sources",
  {
    propertyId: uuid("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    source: text("source", { enum: SOURCES }).notNull(),
    status: text("status", { enum: SOURCE_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    lastDurationMs: integer("last_duration_ms"),
    // The register that answered last (catastro-ovc, icaen-socrata, estimate, sandbox...).
    provider: text("provider"),
    // A short summary of the register's answer, for operators and the portal timeline.
    summary: jsonb("summary").$type<Record<string, unknown>>(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.propertyId, t.source] })],
);

export const enrichmentAttempts = pgTable(
  "enrichment_attempts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    propertyId: uuid("property_id")
      .notNull()
      .references(() => properties.id, { onDelete: "cascade" }),
    source: text("source", { enum: SOURCES }).notNull(),
    attempt: integer("attempt").notNull(),
    // inline (during the create request) or job (durable retry)
    trigger: text("trigger", { enum: ["inline", "job"] }).notNull(),
    outcome: text("outcome", { enum: ["completed", "not_found", "error", "timeout"] }).notNull(),
    error: text("error"),
    provider: text("provider"),
    startedAt: ts("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [
    index("enrichment_attempts_property").on(t.propertyId, t.id),
    // The admin console's register health: a provider's attempts of the last day, its last error.
    index("enrichment_attempts_provider_started").on(t.provider, t.startedAt),
  ],
);

// Events recorded for partners (the outbox of webhook deliveries).
export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: MODES }).notNull(),
    type: text("type").notNull(),
    propertyId: uuid("property_id").references(() => properties.id, { onDelete: "cascade" }),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("events_partner_created").on(t.partnerId, t.mode, t.createdAt),
    // One property.enriched per property, whatever races happen.
    uniqueIndex("events_one_enriched_per_property").on(t.propertyId, t.type).where(sql`type = 'property.enriched'`),
  ],
);

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: MODES }).notNull(),
    url: text("url").notNull(),
    description: text("description"),
    secret: text("secret").notNull(),
    // Previous secret, still signed with until previousSecretExpiresAt (rotation).
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    // When its secret was last rotated (null: the one it was created with), so a create's replay never
    // answers with another secret than the first answer's.
    secretRotatedAt: ts("secret_rotated_at"),
    // The events it receives; null: every type (webhook.test reaches every endpoint regardless).
    eventTypes: text("event_types").array().$type<EventType[]>(),
    enabled: boolean("enabled").notNull().default(true),
    disabledReason: text("disabled_reason"),
    // Start of the current run of failures (null while healthy), to disable after WEBHOOK_DISABLE_AFTER_DAYS.
    failingSince: ts("failing_since"),
    // When the owners were last emailed that it fails: once per run of failures (later than failing_since).
    failingNotifiedAt: ts("failing_notified_at"),
    // The creating request's Idempotency-Key and a hash of its body (a repeat with another body is refused).
    idempotencyKey: text("idempotency_key"),
    requestHash: text("request_hash"),
    createdAt: createdAt(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    index("webhook_endpoints_partner").on(t.partnerId, t.mode),
    uniqueIndex("webhook_endpoints_idempotency")
      .on(t.partnerId, t.mode, t.idempotencyKey)
      .where(sql`idempotency_key is not null`),
  ],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // The Standard Webhooks `webhook-id`: stable across retries and replays.
    messageId: text("message_id").notNull(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    deliveredAt: ts("delivered_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_endpoint").on(t.eventId, t.endpointId),
    index("webhook_deliveries_endpoint_created").on(t.endpointId, t.createdAt),
    // Partners search their deliveries by the `webhook-id` their receiver logged.
    index("webhook_deliveries_message").on(t.messageId),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    trigger: text("trigger", { enum: DELIVERY_TRIGGERS }).notNull(),
    startedAt: ts("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    statusCode: integer("status_code"),
    responseBody: text("response_body"),
    errorClass: text("error_class"),
    error: text("error"),
    // The webhook-signature header sent (its timestamp is started_at's second): what the partner
    // verified against, kept because a later rotation changes the secrets. Null in older rows.
    signature: text("signature"),
  },
  (t) => [index("webhook_attempts_delivery").on(t.deliveryId, t.id)],
);

// Sliding-window log per bucket (partner + mode): timestamps (ms, database clock) of the
// writes counted in the last window. One row per bucket keeps the check one atomic statement.
// Register budgets keep theirs here too (`register:<name>`: lib/registers/budgets.ts).
export const rateLimitWindows = pgTable("rate_limit_windows", {
  bucket: text("bucket").primaryKey(),
  hits: bigint("hits", { mode: "number" }).array().notNull(),
});

// The local register index (lib/registers): certificate and inspection records of open datasets.
// Each import writes a new generation of its dataset's records and then switches the dataset to
// it in one statement, so a lookup sees the previous copy or the new one, never half of either.
export const registerDatasets = pgTable("register_datasets", {
  id: text("id").primaryKey(),
  /** The generation lookups read (0: never imported). */
  generation: integer("generation").notNull().default(0),
  /** The last generation an import claimed (imports count up from here). */
  lastGeneration: integer("last_generation").notNull().default(0),
  rows: integer("rows").notNull().default(0),
  /** Source rows left out of the live copy (no usable reference or rating). */
  skipped: integer("skipped").notNull().default(0),
  /** Rows and values left out, by reason, with where the first few sit (lib/registers/skips.ts). */
  skips: jsonb("skips")
    .$type<Record<string, { count: number; first: { file: string; line: number; column: string | null }[] }>>()
    .notNull()
    .default({}),
  /** The publisher's snapshot date: published_on, else latest_record_on (never the download day). */
  asOf: date("as_of", { mode: "string" }),
  /** Which of the two as_of is: `published` (the dataset's metadata) or `latest_record`. */
  asOfBasis: text("as_of_basis", { enum: ["published", "latest_record"] }),
  /** The snapshot date the publisher's metadata gives, when known. */
  publishedOn: date("published_on", { mode: "string" }),
  /** The newest issue, registration or inspection date among the copy's records. */
  latestRecordOn: date("latest_record_on", { mode: "string" }),
  /** Files or URL the live copy was read from. */
  source: text("source"),
  importedAt: ts("imported_at"),
  lastAttemptAt: ts("last_attempt_at"),
  lastError: text("last_error"),
});

export const registerRecords = pgTable(
  "register_records",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    dataset: text("dataset").notNull(),
    generation: integer("generation").notNull(),
    kind: text("kind", { enum: REGISTER_RECORD_KINDS }).notNull(),
    /** Null for a record a city publishes by address only (matched through address_key). */
    parcel: text("parcel"),
    /** The first 18 characters of a unit reference; null for a record of the whole building. */
    unit: text("unit"),
    /** Issue date, else end of validity: orders a reference's records newest first. */
    datedOn: date("dated_on", { mode: "string" }),
    /** Line of the source file the record comes from. */
    sourceRow: integer("source_row").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    /** Normalised street type, name and number with municipality, for registers published by address. */
    addressKey: text("address_key"),
  },
  (t) => [
    index("register_records_parcel").on(t.parcel, t.kind),
    index("register_records_dataset").on(t.dataset, t.generation),
    index("register_records_address").on(t.addressKey, t.kind).where(sql`address_key is not null`),
  ],
);

// The cadastre index (lib/registers/catastro-*): Catastro's bulk data, one copy per source and
// municipality. Each import writes a new generation of that copy and switches to it in one
// statement, as register_datasets does, so a lookup sees one whole copy of every municipality.
export const cadastreCopies = pgTable(
  "cadastre_copies",
  {
    source: text("source", { enum: CADASTRE_SOURCES }).notNull(),
    /** The municipality as Catastro codes it: delegation (2 digits) and DGC municipality (3). */
    municipality: text("municipality").notNull(),
    generation: integer("generation").notNull().default(0),
    lastGeneration: integer("last_generation").notNull().default(0),
    /** Records of the live copy by kind (parcel, building, address, unit…). */
    counts: jsonb("counts").$type<Record<string, number>>().notNull().default({}),
    /** Lines or features left out, by reason, with the first few positions. */
    skips: jsonb("skips")
      .$type<Record<string, { count: number; first: { file: string; line: number; column: string | null }[] }>>()
      .notNull()
      .default({}),
    /** The publisher's date of the copy, and where it was taken from (file header or feed, or the operator). */
    asOf: date("as_of", { mode: "string" }),
    asOfFrom: text("as_of_from"),
    sourceFiles: text("source_files"),
    importedAt: ts("imported_at"),
    lastAttemptAt: ts("last_attempt_at"),
    lastError: text("last_error"),
  },
  (t) => [primaryKey({ columns: [t.source, t.municipality] })],
);

export const cadastreRecords = pgTable(
  "cadastre_records",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    source: text("source", { enum: CADASTRE_SOURCES }).notNull(),
    municipality: text("municipality").notNull(),
    generation: integer("generation").notNull(),
    /** parcel, building, building_part, address (INSPIRE); cat_parcel, construction_unit, construction, unit (CAT). */
    kind: text("kind").notNull(),
    parcel: text("parcel").notNull(),
    /** The 20-character unit reference of a CAT unit record; null otherwise. */
    unit: text("unit"),
    sourceLine: integer("source_line").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    index("cadastre_records_parcel").on(t.parcel, t.kind),
    index("cadastre_records_unit").on(t.unit).where(sql`unit is not null`),
    index("cadastre_records_copy").on(t.source, t.municipality, t.generation),
  ],
);

// One row per partner API request (lib/request-logs), written in batches off the request path
// and pruned after REQUEST_LOG_RETENTION_DAYS: what a partner needs to find a request again and
// debug it (the body's first 4 KiB, headers, the problem answered), keys and secrets redacted.
// partner_id is null for requests no key authenticated (none are written now; older rows may be).
export const requestLogs = pgTable(
  "request_logs",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    requestId: text("request_id").notNull(),
    partnerId: uuid("partner_id").references(() => partners.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: MODES }),
    keyId: uuid("key_id"),
    keyVisibleStart: text("key_visible_start"),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status").notNull(),
    errorCode: text("error_code"),
    durationMs: integer("duration_ms").notNull(),
    at: ts("at").notNull(),
    // What a partner debugs from (lib/partner-api's RequestDetail), secrets redacted before storage.
    query: text("query"),
    requestHeaders: jsonb("request_headers").$type<Record<string, string>>(),
    requestBody: text("request_body"),
    problem: jsonb("problem").$type<Record<string, unknown>>(),
    propertyId: uuid("property_id"),
  },
  (t) => [
    index("request_logs_partner_at").on(t.partnerId, t.mode, t.at.desc(), t.id.desc()),
    index("request_logs_request_id").on(t.requestId),
    index("request_logs_at").on(t.at),
  ],
);

// Portfolios (lib/batches): a batch and its items, accepted in one transaction and worked through in
// steps by the batch job. `counts` is the items' tally as of the last step (or cancel).
export const batches = pgTable(
  "batches",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: MODES }).notNull(),
    name: text("name"),
    status: text("status", { enum: BATCH_STATUSES }).notNull().default("queued"),
    counts: jsonb("counts").$type<BatchCounts>().notNull(),
    // The request's Idempotency-Key and a hash of what it sent (a repeat with another body is refused).
    idempotencyKey: text("idempotency_key"),
    requestHash: text("request_hash"),
    // The step the batch job may run next; a job carrying another number is stale and does nothing.
    step: integer("step").notNull().default(1),
    createdAt: createdAt(),
    startedAt: ts("started_at"),
    completedAt: ts("completed_at"),
  },
  (t) => [
    index("batches_partner_mode_created").on(t.partnerId, t.mode, t.createdAt.desc(), t.id.desc()),
    uniqueIndex("batches_idempotency")
      .on(t.partnerId, t.mode, t.idempotencyKey)
      .where(sql`idempotency_key is not null`),
  ],
);

export const batchItems = pgTable(
  "batch_items",
  {
    batchId: uuid("batch_id")
      .notNull()
      .references(() => batches.id, { onDelete: "cascade" }),
    line: integer("line").notNull(),
    cadastralReference: text("cadastral_reference").notNull(),
    externalId: text("external_id"),
    // `pending` with no property yet: not registered so far (the next steps take it).
    status: text("status", { enum: BATCH_ITEM_STATUSES }).notNull(),
    propertyId: uuid("property_id").references(() => properties.id, { onDelete: "set null" }),
    /** Why an `invalid` item is invalid (its code is always invalid_cadastral_reference). */
    errorDetail: text("error_detail"),
  },
  (t) => [
    primaryKey({ columns: [t.batchId, t.line] }),
    index("batch_items_status").on(t.batchId, t.status, t.line),
    // A batch step's own rows, each set at most BATCH_WINDOW (or a step's) long whatever the batch's
    // size: the items enriching, the next ones to register, and the duplicates a reference points to.
    index("batch_items_enriching")
      .on(t.batchId, t.propertyId)
      .where(sql`status = 'pending' and property_id is not null`),
    index("batch_items_unregistered").on(t.batchId, t.line).where(sql`status = 'pending' and property_id is null`),
    index("batch_items_duplicates").on(t.batchId, t.cadastralReference).where(sql`status = 'duplicate'`),
    // Finding a partner's own id (a loan number) in one portfolio or across its portfolios.
    index("batch_items_external_id").on(t.externalId, t.batchId).where(sql`external_id is not null`),
  ],
);
