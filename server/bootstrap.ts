// Operator bootstrap from the environment: a seed partner and key, and an admin user (idempotent).
import type { Db } from "@/lib/db";
import { ensureApiKey, parseApiKey } from "@/lib/api-keys";
import { ensureSystemPartner } from "@/lib/partners";
import { ensureAdmin } from "@/lib/auth/users";
import { directPasswords } from "@/lib/auth/password";

export const SEED_PARTNER = "Seed Partner";

export async function bootstrap(db: Db, env: Record<string, string | undefined>): Promise<void> {
  if (env.FINCA_SEED_API_KEY) await ensureSeedKey(db, env.FINCA_SEED_API_KEY);
  if (env.FINCA_ADMIN_EMAIL || env.FINCA_ADMIN_PASSWORD) {
    if (!env.FINCA_ADMIN_EMAIL || !env.FINCA_ADMIN_PASSWORD) {
      throw new Error("FINCA_ADMIN_EMAIL and FINCA_ADMIN_PASSWORD must be set together.");
    }
    await ensureAdmin(db, directPasswords, env.FINCA_ADMIN_EMAIL, env.FINCA_ADMIN_PASSWORD);
  }
}

/** The seed partner (found by its system role, never by its name) owns exactly this key, active, whatever state an earlier start left. */
async function ensureSeedKey(db: Db, key: string): Promise<void> {
  const parsed = parseApiKey(key.trim());
  if (!parsed)
    throw new Error(
      "FINCA_SEED_API_KEY is not a well-formed Finca key (finca_live_… or finca_test_… with a valid checksum).",
    );
  const partner = await ensureSystemPartner(db, "seed", SEED_PARTNER);
  await ensureApiKey(db, { partnerId: partner.id, name: "Seed key", key: parsed });
}
