// Partner organisations and their users.
import { asc, eq, sql } from "drizzle-orm";
import { qualified, schema, type DbOrTx } from "@/lib/db";

const { partners, users, apiKeys, properties } = schema;
export type Partner = typeof partners.$inferSelect;

export async function findPartnerByName(db: DbOrTx, name: string): Promise<Partner | null> {
  const [row] = await db.select().from(partners).where(eq(partners.name, name)).limit(1);
  return row ?? null;
}

/** Returns the partner of that name, creating it if missing (safe under concurrency). */
export async function ensurePartner(db: DbOrTx, name: string): Promise<Partner> {
  await db.insert(partners).values({ name }).onConflictDoNothing({ target: partners.name });
  return (await findPartnerByName(db, name))!;
}

/**
 * The operator's own partner for a system role (e.g. "seed"), found by that role, which only the
 * operator's bootstrap sets; created with `name`, which sign-up refuses to anyone else. A partner
 * of that name that is not the system one (an earlier sign-up) is never taken over: start-up fails.
 */
export async function ensureSystemPartner(db: DbOrTx, role: string, name: string): Promise<Partner> {
  const [own] = await db.select().from(partners).where(eq(partners.systemRole, role)).limit(1);
  if (own) return own;
  // The operator's own organisation has live mode from the start.
  const [created] = await db
    .insert(partners)
    .values({ name, systemRole: role, liveAccess: "approved", liveDecidedAt: new Date() })
    .onConflictDoNothing()
    .returning();
  if (created) return created;
  const [raced] = await db.select().from(partners).where(eq(partners.systemRole, role)).limit(1);
  if (raced) return raced;
  throw new Error(
    `A partner named "${name}" exists and is not the operator's ${role} partner; rename it (or remove it) before starting with it configured.`,
  );
}

export async function createPartner(db: DbOrTx, name: string): Promise<Partner> {
  const [row] = await db.insert(partners).values({ name }).returning();
  return row!;
}

export async function getPartner(db: DbOrTx, id: string): Promise<Partner | null> {
  const [row] = await db.select().from(partners).where(eq(partners.id, id)).limit(1);
  return row ?? null;
}

export async function listPartners(db: DbOrTx) {
  return db
    .select({
      id: partners.id,
      name: partners.name,
      createdAt: partners.createdAt,
      users: sql<number>`(select count(*)::int from ${users} where ${qualified(users.partnerId)} = ${qualified(partners.id)})`,
      activeKeys: sql<number>`(select count(*)::int from ${apiKeys} where ${qualified(apiKeys.partnerId)} = ${qualified(partners.id)} and ${qualified(apiKeys.revokedAt)} is null)`,
      properties: sql<number>`(select count(*)::int from ${properties} where ${qualified(properties.partnerId)} = ${qualified(partners.id)})`,
    })
    .from(partners)
    .orderBy(asc(partners.name));
}
