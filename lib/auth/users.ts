// Portal users: partner owners and members, and operators (admins) who belong to no partner.
import { eq, sql } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";
import type { Role } from "@/lib/domain";
import { hashPassword } from "./password";

const { users } = schema;
export type User = typeof users.$inferSelect;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: DbOrTx, email: string): Promise<User | null> {
  const [row] = await db.select().from(users).where(eq(users.email, normalizeEmail(email))).limit(1);
  return row ?? null;
}

export async function createUser(
  db: DbOrTx,
  input: { email: string; password: string; role: Role; partnerId: string | null; name?: string },
): Promise<User> {
  const [row] = await db
    .insert(users)
    .values({
      email: normalizeEmail(input.email),
      passwordHash: await hashPassword(input.password),
      role: input.role,
      partnerId: input.partnerId,
      name: input.name ?? null,
    })
    .returning();
  return row!;
}

/** The operator's bootstrap admin: created, or its password and role reset to the configured ones. */
export async function ensureAdmin(db: DbOrTx, email: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db
    .insert(users)
    .values({ email: normalizeEmail(email), passwordHash, role: "admin", partnerId: null })
    .onConflictDoUpdate({ target: users.email, set: { passwordHash, role: "admin", partnerId: sql`null` } });
}
