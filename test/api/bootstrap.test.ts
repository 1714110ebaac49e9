import { afterAll, beforeAll, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { bootstrap, SEED_PARTNER } from "@/server/bootstrap";
import { generateApiKey, revokeApiKey, authenticateApiKey } from "@/lib/api-keys";
import { checkCredentials } from "@/lib/auth/accounts";
import { MAX_FAILURES_PER_EMAIL } from "@/lib/auth/throttle";
import { createTestApp, get, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

it("FINCA_SEED_API_KEY idempotently gives Seed Partner exactly that key, re-activating it", async () => {
  const key = generateApiKey("live");
  for (let i = 0; i < 2; i++) await bootstrap(t.app.db, { FINCA_SEED_API_KEY: key });
  const partners = await t.app.db.select().from(schema.partners).where(eq(schema.partners.name, SEED_PARTNER));
  expect(partners).toHaveLength(1);
  const principal = await authenticateApiKey(t.app.db, key);
  expect(principal).toMatchObject({ partnerId: partners[0]!.id, mode: "live" });
  await revokeApiKey(t.app.db, principal!.apiKeyId);
  await bootstrap(t.app.db, { FINCA_SEED_API_KEY: key });
  expect((await t.api.listProperties(get("/properties", { "X-API-Key": key }))).status).toBe(200);
  await expect(bootstrap(t.app.db, { FINCA_SEED_API_KEY: "finca_live_notakey" })).rejects.toThrow(/not a well-formed/);
});

it("FINCA_ADMIN_EMAIL/PASSWORD ensure an admin; sign-in is throttled after repeated failures", async () => {
  await bootstrap(t.app.db, { FINCA_ADMIN_EMAIL: "Ops@Finca.test", FINCA_ADMIN_PASSWORD: "first-password-1" });
  await bootstrap(t.app.db, { FINCA_ADMIN_EMAIL: "ops@finca.test", FINCA_ADMIN_PASSWORD: "second-password-2" });
  const ok = await checkCredentials(t.app.db, "ops@finca.test", "second-password-2", "203.0.113.9");
  expect(ok).toMatchObject({ ok: true, user: { role: "admin", partnerId: null } });
  for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++) {
    expect(await checkCredentials(t.app.db, "ops@finca.test", "wrong", "203.0.113.9")).toEqual({ ok: false, reason: "invalid" });
  }
  // Even the right password is refused while throttled.
  expect(await checkCredentials(t.app.db, "ops@finca.test", "second-password-2", "203.0.113.9")).toEqual({ ok: false, reason: "throttled" });
  await expect(bootstrap(t.app.db, { FINCA_ADMIN_EMAIL: "x@finca.test" })).rejects.toThrow(/set together/);
});
