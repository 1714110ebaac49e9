// Reading a partner's properties in one mode, as the contract's Property.
import { z } from "zod";
import { and, desc, eq, getTableColumns, inArray, lt, or, sql } from "drizzle-orm";
import { containsPattern, foldedContains, schema, type DbOrTx } from "@/lib/db";
import { normalizeReference } from "@/lib/cadastral-reference";
import {
  certificateAsOf,
  EMPTY_DATA,
  inSchemaOrder,
  iteAsOf,
  Property,
  PropertyData,
  StoredPropertyData,
  type PropertyStatus,
  type Scope,
  type SourceName,
} from "@/lib/domain";

const { properties, enrichmentSources } = schema;
export type PropertyRow = typeof properties.$inferSelect;
export type SourceRow = typeof enrichmentSources.$inferSelect;

/**
 * The data members with a column of their own (the column's SQL name is the member's name), by
 * their key in the Drizzle row; every other member travels in `details`. Derived, so a new member
 * is declared in the Property's schema only.
 */
const COLUMN_MEMBERS = Object.entries(getTableColumns(properties))
  .filter(([, column]) => column.name in PropertyData.shape)
  .map(([key, column]) => [column.name as keyof PropertyData, key as keyof PropertyRow] as const);
const IN_COLUMNS = new Set<string>(COLUMN_MEMBERS.map(([member]) => member));

type Columns = typeof properties._.columns;
/** The row's keys whose column holds a data member (the same derivation, as a type). */
type DataColumn = {
  [K in keyof Columns]: Columns[K]["_"]["name"] extends keyof PropertyData ? K : never;
}[keyof Columns];

/** The Property's data members as the row's columns and its `details`. */
export function columnsOf(data: PropertyData): Pick<PropertyRow, DataColumn | "details"> {
  const details = Object.fromEntries(Object.entries(data).filter(([member]) => !IN_COLUMNS.has(member)));
  const columns = Object.fromEntries(COLUMN_MEMBERS.map(([member, key]) => [key, data[member]]));
  return { ...columns, details } as Pick<PropertyRow, DataColumn | "details">;
}

/**
 * The data members of a stored row (members it was written without are null), decoded by the
 * Property's schema: the one point where its jsonb (`details`, the certificate) re-enters as types.
 */
export function dataOf(p: PropertyRow): StoredPropertyData {
  const columns = Object.fromEntries(COLUMN_MEMBERS.map(([member, key]) => [member, p[key] ?? null]));
  const parsed = StoredPropertyData.safeParse({ ...EMPTY_DATA, ...p.details, ...columns });
  if (!parsed.success) throw new Error(`property ${p.id}'s data is off its schema: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A summary's text member, or null (answers stored before provenance was kept have none). */
const summaryText = (row: SourceRow | undefined, key: string): string | null => {
  const value = row?.summary?.[key];
  return typeof value === "string" ? value : null;
};

/**
 * Where a source's value comes from, as its answer's summary recorded it (lib/enrichment/sources:
 * live answers and index hits carry licence, notice, dates and dataset).
 */
const provenanceOf = (row: SourceRow | undefined) => ({
  as_of: summaryText(row, "as_of"),
  retrieved_at: summaryText(row, "retrieved_at"),
  dataset: summaryText(row, "dataset"),
  licence: summaryText(row, "licence"),
});

/** The notices the answers behind the values require, once each, in source order. */
const attributionOf = (sources: SourceRow[]): string[] => [
  ...new Set(
    (["cadastre", "energy_certificate", "ite"] as const).flatMap((name) => {
      const notice = summaryText(
        sources.find((s) => s.source === name),
        "attribution",
      );
      return notice ? [notice] : [];
    }),
  ),
];

/**
 * The contract's Property from a row and its source rows. Its data members are decoded from the row
 * (dataOf), unless the caller holds them typed: a new property's, which the engine just made, need
 * no second parse (the tests check every answer against the contract: ApiDeps.validateReplies).
 */
export function toProperty(
  p: PropertyRow,
  sources: SourceRow[],
  now = new Date(),
  data: StoredPropertyData = dataOf(p),
): Property {
  const source = (name: SourceName) => {
    const row = sources.find((s) => s.source === name);
    return {
      status: row?.status ?? "pending",
      attempts: row?.attempts ?? 0,
      updated_at: (row?.updatedAt ?? p.createdAt).toISOString(),
      error: row?.status === "completed" ? null : (row?.lastError ?? null),
      provider: row?.provider ?? null,
      ...provenanceOf(row),
    };
  };
  // Nested members read back from jsonb come in its order: the schema's is the one every answer uses.
  return inSchemaOrder(Property, {
    property_id: p.id,
    cadastral_reference: p.cadastralReference,
    status: p.status,
    ...data,
    energy_certificate: certificateAsOf(data.energy_certificate, now),
    ite: iteAsOf(data.ite, now),
    enrichment: { cadastre: source("cadastre"), energy_certificate: source("energy_certificate"), ite: source("ite") },
    attribution: attributionOf(sources),
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
    enriched_at: p.enrichedAt?.toISOString() ?? null,
  } satisfies Property);
}

export async function sourcesOf(db: DbOrTx, propertyIds: string[]): Promise<SourceRow[]> {
  if (!propertyIds.length) return [];
  return db.select().from(enrichmentSources).where(inArray(enrichmentSources.propertyId, propertyIds));
}

/**
 * The properties of these ids within the scope, as the API shows them: two statements for any
 * number, side by side (a source row of an id outside the scope is read and dropped).
 */
export async function propertiesById(db: DbOrTx, scope: Scope, ids: string[]): Promise<Map<string, Property>> {
  if (!ids.length) return new Map();
  const [rows, sourceRows] = await Promise.all([
    db
      .select()
      .from(properties)
      .where(and(inArray(properties.id, ids), inScope(scope))),
    sourcesOf(db, ids),
  ]);
  const sources = new Map<string, SourceRow[]>();
  for (const s of sourceRows) {
    const list = sources.get(s.propertyId);
    if (list) list.push(s);
    else sources.set(s.propertyId, [s]);
  }
  return new Map(rows.map((p) => [p.id, toProperty(p, sources.get(p.id) ?? [])]));
}

const inScope = (scope: Scope) => and(eq(properties.partnerId, scope.partnerId), eq(properties.mode, scope.mode));

/** The property as the API shows it; null when absent or outside the caller's scope. */
export async function getProperty(db: DbOrTx, scope: Scope, id: string): Promise<Property | null> {
  const [row] = await db
    .select()
    .from(properties)
    .where(and(eq(properties.id, id), inScope(scope)))
    .limit(1);
  return row ? toProperty(row, await sourcesOf(db, [row.id])) : null;
}

export interface ListOptions {
  limit: number;
  startingAfter?: string;
  status?: PropertyStatus;
  /** Portal search: in the reference (normalised as a create does), address or municipality, any case or accent. */
  search?: string;
  /** Exactly this normalised reference. */
  reference?: string;
  createdFrom?: Date;
  createdTo?: Date;
}

export interface PropertyPage {
  data: Property[];
  has_more: boolean;
  next_starting_after: string | null;
}

/** Newest first; the cursor is a property id of the previous page (keyset on created_at, id). Null for a cursor outside the scope. */
export async function listProperties(db: DbOrTx, scope: Scope, o: ListOptions): Promise<PropertyPage | null> {
  if (o.startingAfter) {
    const [row] = await db
      .select({ id: properties.id })
      .from(properties)
      .where(and(eq(properties.id, o.startingAfter), inScope(scope)));
    if (!row) return null;
  }
  // A reference is matched as a create normalises it ("9872023 vh5797s-0001" finds 9872023VH5797S0001WX).
  const reference = o.search ? normalizeReference(o.search) : "";
  const rows = await db
    .select()
    .from(properties)
    .where(
      and(
        inScope(scope),
        o.status ? eq(properties.status, o.status) : undefined,
        o.reference !== undefined ? eq(properties.cadastralReference, o.reference) : undefined,
        o.search
          ? or(
              reference ? sql`${properties.cadastralReference} like ${containsPattern(reference)}` : undefined,
              foldedContains(properties.address, o.search),
              foldedContains(properties.municipality, o.search),
            )
          : undefined,
        o.createdFrom ? sql`${properties.createdAt} >= ${o.createdFrom}` : undefined,
        o.createdTo ? lt(properties.createdAt, o.createdTo) : undefined,
        // Compared in SQL: JavaScript dates would lose the microseconds that order rows.
        o.startingAfter
          ? sql`(${properties.createdAt}, ${properties.id}) < (select ${properties.createdAt}, ${properties.id} from ${properties} where ${properties.id} = ${o.startingAfter})`
          : undefined,
      ),
    )
    .orderBy(desc(properties.createdAt), desc(properties.id))
    .limit(o.limit + 1);
  const page = rows.slice(0, o.limit);
  const sources = await sourcesOf(
    db,
    page.map((p) => p.id),
  );
  return {
    data: page.map((p) =>
      toProperty(
        p,
        sources.filter((s) => s.propertyId === p.id),
      ),
    ),
    has_more: rows.length > o.limit,
    next_starting_after: rows.length > o.limit ? (page.at(-1)?.id ?? null) : null,
  };
}
