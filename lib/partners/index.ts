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
