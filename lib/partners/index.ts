// Partner organisations and their users.
import { asc, eq, sql } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";

const { partners } = schema;
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
      // Qualified by hand: Drizzle renders a bare column here, which the subquery would take as its own.
      users: sql<number>`(select count(*)::int from users u where u.partner_id = partners.id)`,
      activeKeys: sql<number>`(select count(*)::int from api_keys k where k.partner_id = partners.id and k.revoked_at is null)`,
      properties: sql<number>`(select count(*)::int from properties p where p.partner_id = partners.id)`,
    })
    .from(partners)
    .orderBy(asc(partners.name));
}
