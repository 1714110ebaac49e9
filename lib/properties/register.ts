// Registering a property: idempotent on (partner, mode, normalised reference). A repeat asks no
// register; a new one is enriched inline until the deadline, then written with its source rows and
// attempt log in one statement, and its durable job in the same transaction when work is left.
import { randomUUID } from "node:crypto";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { bare, madeWithKey, preparedStatement, rowsOf, schema, type Db } from "@/lib/db";
import type { Queue } from "@/lib/queue";
import { checkReference, referenceProblem } from "@/lib/cadastral-reference";
import {
  DomainError,
  IDEMPOTENCY_HOURS,
  idempotencyConflict,
  SOURCES,
  type Mode,
  type Property,
  type PropertyStatus,
  type Scope,
  type WriteBudget,
} from "@/lib/domain";
import {
  newDraft,
  runUntil,
  finalStatus,
  type AttemptRecord,
  type Draft,
  type RunOptions,
  type Trigger,
} from "@/lib/enrichment/engine";
import { errorFields, type LogSink } from "@/lib/observability/logger";
import { firstRunDelaySeconds, inlineDeadline, maxAttempts, type ScheduleConfig } from "@/lib/enrichment/schedule";
import type { Sources } from "@/lib/enrichment/sources/types";
import { requireLiveAccess } from "@/lib/partners/live";
import { insertProperty } from "./insert";
import { columnsOf, getProperty, toProperty, type PropertyRow, type SourceRow } from "./read";

const { properties, propertyRepeatKeys } = schema;

/** What creating and enriching properties needs. */
export interface PropertiesDeps {
  db: Db;
  queue: Queue;
  config: ScheduleConfig;
  sourcesFor(mode: Mode): Sources;
  /** Where a run's unexpected failure is told (the App's logger). */
  logger: Pick<LogSink, "error">;
  /** Told of the attempts each run made (inline or durable), whether or not its write wins; must not throw. */
  onAttempts?: (attempts: readonly AttemptRecord[], mode: Mode) => void;
}

export interface Registration {
  created: boolean;
  property: Property;
}

const propertyByReference = preparedStatement("property_by_reference", (db) =>
  db
    .select({ id: properties.id })
    .from(properties)
    .where(
      and(
        eq(properties.partnerId, sql.placeholder("partnerId")),
        eq(properties.mode, sql.placeholder("mode")),
        eq(properties.cadastralReference, sql.placeholder("reference")),
      ),
    ),
);

async function existing(db: Db, scope: Scope, reference: string): Promise<Property | null> {
  const [row] = await propertyByReference(db).execute({ ...scope, reference });
  return row ? getProperty(db, scope, row.id) : null;
}

/**
 * The id of the scope's property of `reference`, as a scalar subquery over SQL of the scope and the
 * reference: the repeat check folded into a statement the caller makes anyway (the API's key check).
 */
export function registeredIdSql(scope: { partnerId: SQL; mode: SQL }, reference: SQL): SQL {
  return sql`select ${properties.id} from ${properties}
    where ${properties.partnerId} = ${scope.partnerId} and ${properties.mode} = ${scope.mode}
      and ${properties.cadastralReference} = ${reference}`;
}

/** How a run of the engine on `draft` goes: its mode's registers and attempts, a bug in it logged. */
export function runOptions(deps: PropertiesDeps, draft: Draft, trigger: Trigger): RunOptions {
  return {
    sources: deps.sourcesFor(draft.mode),
    trigger,
    maxAttempts: maxAttempts(deps.config, draft.mode),
    onError: (error) =>
      deps.logger.error({ reference: draft.reference, trigger, ...errorFields(error) }, "enrichment run failed"),
  };
}

/** A draft's three source rows and its new attempt-log rows, for the property `propertyId`. */
export function childRowsOf(draft: Draft, propertyId: string) {
  const sources: SourceRow[] = SOURCES.map((source) => ({ propertyId, source, ...draft.sources[source] }));
  const attempts = draft.attempts.map((a) => ({ ...a, propertyId }));
  return { sources, attempts };
}

/**
 * The rows a new property's draft is written as. Everything is known here, the id and the times
 * too, so the answer is built from them and nothing needs reading back.
 */
export function rowsOfNewProperty(
  draft: Draft,
  scope: Scope,
  status: PropertyStatus | null,
  idempotencyKey: string | null = null,
  now = new Date(),
) {
  const property: PropertyRow = {
    id: randomUUID(),
    partnerId: scope.partnerId,
    mode: scope.mode,
    cadastralReference: draft.reference,
    idempotencyKey,
    ...columnsOf(draft.data),
    facts: draft.facts,
    status: status ?? "enriching",
    enrichmentRun: 1,
    createdAt: now,
    updatedAt: now,
    enrichedAt: status ? now : null,
  };
  return { property, ...childRowsOf(draft, property.id) };
}

/**
 * Enriches a new property until the deadline and writes it (with the create's Idempotency-Key);
 * null when a concurrent create won, of the reference or of the key.
 */
async function createEnriched(
  deps: PropertiesDeps,
  scope: Scope,
  reference: string,
  startedAt: number,
  idempotencyKey: string | null,
): Promise<Property | null> {
  const draft = newDraft(reference, scope.mode);
  await runUntil(draft, runOptions(deps, draft, "inline"), inlineDeadline(deps.config, startedAt));
  deps.onAttempts?.(draft.attempts, scope.mode);
  const status = finalStatus(draft);
  const { property, sources, attempts } = rowsOfNewProperty(draft, scope, status, idempotencyKey);
  // Finished inline: final at the response, nothing to announce. Otherwise the durable job
  // (written in the row's statement) retries what is left and announces the end.
  const job = status
    ? undefined
    : {
        data: { propertyId: property.id, run: 1 },
        options: { delaySeconds: firstRunDelaySeconds(deps.config, scope.mode) },
      };
  const created = await insertProperty(deps.db, property, sources, attempts, job);
  return created ? toProperty(property, sources, new Date(), draft.data) : null;
}

/**
 * Registers a normalised, valid reference. `startedAt` is when the request arrived, so the deadline
 * bounds the whole response; `registeredId` is what the caller's repeat check found (null: nothing;
 * omitted: not checked yet). With an Idempotency-Key that made a property within its life, that
 * property answers as created again, or, for another reference, the request is refused.
 */
async function registerProperty(
  deps: PropertiesDeps,
  scope: Scope,
  reference: string,
  startedAt = Date.now(),
  registeredId?: string | null,
  idempotencyKey: string | null = null,
): Promise<Registration> {
  if (idempotencyKey) {
    const replay = await createdWithKey(deps.db, scope, idempotencyKey, reference);
    if (replay) return { created: true, property: replay };
    const repeat = await repeatedWithKey(deps.db, scope, idempotencyKey, reference);
    if (repeat) return { created: false, property: repeat };
  }
  // A repeat asks no register at all.
  const known =
    registeredId === undefined
      ? await existing(deps.db, scope, reference)
      : registeredId && (await getProperty(deps.db, scope, registeredId));
  if (known) {
    if (idempotencyKey) await keepRepeatKey(deps.db, scope, idempotencyKey, known);
    return { created: false, property: known };
  }
  const created = await createEnriched(deps, scope, reference, startedAt, idempotencyKey);
  if (created) return { created: true, property: created };
  // A concurrent create won while this one was enriching: one with this key (its answer, or a
  // refusal for another reference), or one of the reference.
  const replay = idempotencyKey && (await createdWithKey(deps.db, scope, idempotencyKey, reference));
  if (replay) return { created: true, property: replay };
  const registered = await existing(deps.db, scope, reference);
  if (!registered) throw new Error(`property ${reference}: its insert conflicted, yet nothing holds it`);
  return { created: false, property: registered };
}

/**
 * The property an Idempotency-Key created within its life (null: none); the key with another
 * reference is refused. A key past its life is freed for reuse.
 */
async function createdWithKey(db: Db, scope: Scope, key: string, reference: string): Promise<Property | null> {
  const id = await madeWithKey(db, properties, scope, key);
  const prior = id && (await getProperty(db, scope, id));
  if (!prior) return null;
  if (prior.cadastral_reference !== reference) throw idempotencyConflict("property");
  return prior;
}

/**
 * The property a repeat sent with this Idempotency-Key answered (200) within the key's life (null:
 * none); the key with another reference is refused, as a key that created a property.
 */
async function repeatedWithKey(db: Db, scope: Scope, key: string, reference: string): Promise<Property | null> {
  const id = await madeWithKey(db, propertyRepeatKeys, scope, key);
  if (!id) return null;
  const [row] = await db
    .select({ propertyId: propertyRepeatKeys.propertyId })
    .from(propertyRepeatKeys)
    .where(eq(propertyRepeatKeys.id, id));
  const prior = row && (await getProperty(db, scope, row.propertyId));
  if (!prior) return null;
  if (prior.cadastral_reference !== reference) throw idempotencyConflict("property");
  return prior;
}

/**
 * Keeps the key a repeat was sent with (a key that answered 200 answers so again, and another
 * reference with it is refused); the partner's keys past their life go in the same statement. A
 * concurrent request that kept the key first decides: the same reference is the same answer.
 */
async function keepRepeatKey(db: Db, scope: Scope, key: string, property: Property): Promise<void> {
  const k = propertyRepeatKeys;
  const kept = await db.execute(sql`with gone as (
      delete from ${k} where ${k.partnerId} = ${scope.partnerId} and ${k.mode} = ${scope.mode}
        and ${k.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_HOURS}))
    insert into ${k} (${bare(k.partnerId)}, ${bare(k.mode)}, ${bare(k.idempotencyKey)}, ${bare(k.propertyId)})
    values (${scope.partnerId}, ${scope.mode}, ${key}, ${property.property_id})
    on conflict do nothing returning ${k.id}`);
  if (!rowsOf(kept).length) await repeatedWithKey(db, scope, key, property.cadastral_reference);
}

/** A reference as a partner typed it, normalised; `invalid_cadastral_reference` when it cannot be one. */
function normalisedReference(input: string): string {
  const check = checkReference(input);
  if (!check.ok) throw new DomainError("invalid_cadastral_reference", referenceProblem(check));
  return check.reference;
}

/** A create's input: the one schema of the API's request body and the portal's form. */
export const CreatePropertyInput = z
  .strictObject({
    cadastral_reference: z.string().meta({
      description: "14-character parcel or 20-character unit reference; spaces and hyphens are ignored.",
      example: "2749704YJ0624N0001DI",
    }),
  })
  .meta({ id: "CreatePropertyRequest" });
export type CreatePropertyInput = z.output<typeof CreatePropertyInput>;

/** The reference a create names, normalised; `invalid_cadastral_reference` (400) when it cannot be one. */
export const referenceOf = (input: CreatePropertyInput): string => normalisedReference(input.cadastral_reference);

export interface CreateOptions {
  idempotencyKey?: string | null;
  /** When the request arrived (ms): the enrichment deadline counts from it. */
  startedAt?: number;
  /** The scope's property of the reference, when a statement made anyway looked for it (the API's key check). */
  registeredId?: string | null;
}

/**
 * A create, from the API or the portal (each parsed its request with CreatePropertyInput): live
 * access checked (live mode), the write counted, the reference registered (a repeat answers the
 * existing property, `created` false).
 */
export async function createProperty(
  deps: PropertiesDeps,
  scope: Scope,
  budget: WriteBudget,
  input: CreatePropertyInput,
  options: CreateOptions = {},
): Promise<Registration> {
  const startedAt = options.startedAt ?? Date.now();
  await requireLiveAccess(deps.db, scope);
  await budget();
  const reference = referenceOf(input);
  return registerProperty(deps, scope, reference, startedAt, options.registeredId, options.idempotencyKey ?? null);
}
