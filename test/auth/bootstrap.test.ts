// The operator's bootstrap: the seed partner and the admin, which an outsider must not be able to
// claim by signing up first.
import { afterAll, beforeAll, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import { bootstrap, SEED_PARTNER } from "@/server/bootstrap";
import { generateApiKey, revokeApiKey, authenticateApiKey } from "@/lib/api-keys";
import { checkCredentials, signUp } from "@/lib/auth/accounts";
import { findUserByEmail, sessionIsCurrent } from "@/lib/auth/users";
import { createTestApp, get, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

it("FINCA_SEED_API_KEY idempotently gives the seed partner exactly that key, re-activating it", async () => {
  const key = generateApiKey("live");
  for (let i = 0; i < 2; i++) await bootstrap(t.app.db, { FINCA_SEED_API_KEY: key });
  const partners = await t.app.db.select().from(schema.partners).where(eq(schema.partners.systemRole, "seed"));
  expect(partners).toMatchObject([{ name: SEED_PARTNER }]);
  const principal = await authenticateApiKey(t.app.db, key);
  expect(principal).toMatchObject({ partnerId: partners[0]!.id, mode: "live" });
  await revokeApiKey(t.app.db, principal!.apiKeyId);
  await bootstrap(t.app.db, { FINCA_SEED_API_KEY: key });
  expect((await t.api.listProperties(get("/properties", { "X-API-Key": key }))).status).toBe(200);
  await expect(bootstrap(t.app.db, { FINCA_SEED_API_KEY: "finca_live_notakey" })).rejects.toThrow(/not a well-formed/);
});

it("sign-up refuses the seed partner's name and other reserved names, however written", async () => {
  // …including through look-alike letters: a Cyrillic е, a Cyrillic і, a Greek Α.
  for (const organisation of [
    SEED_PARTNER,
    "  seed   PARTNER ",
    "Seed-Partner",
    "Finca",
    "ADMIN",
    "Sеed Partner",
    "Fіnca",
    "ΑDMIN",
  ]) {
    await expect(
      signUp(t.app, { organisation, email: `x${Math.random()}@example.test`, password: "long-enough-pw" }),
    ).rejects.toThrow(/reserved/);
  }
});

it('a partner an outsider named "Seed Partner" before the operator\'s first start never receives the seed key', async () => {
  const other = await createTestApp({ sources: fakeSources() });
  try {
    // As an earlier release's sign-up allowed: an organisation of that name with its own owner.
    const [squatter] = await other.app.db.insert(schema.partners).values({ name: SEED_PARTNER }).returning();
    const key = generateApiKey("live");
    await expect(bootstrap(other.app.db, { FINCA_SEED_API_KEY: key })).rejects.toThrow(
      /not the operator's seed partner/,
    );
    expect(await authenticateApiKey(other.app.db, key)).toBeNull();
    expect(
      (await other.app.db.select().from(schema.partners).where(eq(schema.partners.id, squatter!.id)))[0]!.systemRole,
    ).toBeNull();
  } finally {
    await other.close();
  }
});

it("FINCA_ADMIN_EMAIL/PASSWORD ensure an admin; a changed password ends the admin's sessions", async () => {
  await bootstrap(t.app.db, { FINCA_ADMIN_EMAIL: "Ops@Finca.test", FINCA_ADMIN_PASSWORD: "first-password-1" });
  const first = (await findUserByEmail(t.app.db, "ops@finca.test"))!;
  await bootstrap(t.app.db, { FINCA_ADMIN_EMAIL: "ops@finca.test", FINCA_ADMIN_PASSWORD: "first-password-1" });
  expect(sessionIsCurrent(await findUserByEmail(t.app.db, "ops@finca.test"), first.sessionVersion)).toBe(true);
  await bootstrap(t.app.db, { FINCA_ADMIN_EMAIL: "ops@finca.test", FINCA_ADMIN_PASSWORD: "second-password-2" });
  expect(sessionIsCurrent(await findUserByEmail(t.app.db, "ops@finca.test"), first.sessionVersion)).toBe(false);
  const ok = await checkCredentials(t.app, "ops@finca.test", "second-password-2", { address: "203.0.113.9" });
  expect(ok).toMatchObject({ ok: true, user: { role: "operator", partnerId: null } });
  await expect(bootstrap(t.app.db, { FINCA_ADMIN_EMAIL: "x@finca.test" })).rejects.toThrow(/set together/);
});

it("never promotes a partner's user to admin: start-up fails and the account stays as it was", async () => {
  const owner = await signUp(t.app, {
    organisation: `Early bird ${Date.now()}`,
    email: "future-ops@finca.test",
    password: "squatter-password",
  });
  await expect(
    bootstrap(t.app.db, { FINCA_ADMIN_EMAIL: "Future-Ops@finca.test", FINCA_ADMIN_PASSWORD: "operator-password" }),
  ).rejects.toThrow(/not made an admin/);
  const after = (await findUserByEmail(t.app.db, "future-ops@finca.test"))!;
  expect(after).toMatchObject({ role: "owner", partnerId: owner.partnerId, passwordHash: owner.passwordHash });
});

it("a sign-up is counted against the cap on new accounts once it is valid; a refusal makes nothing", async () => {
  let asked = 0;
  const admit = async () => (++asked > 1 ? "Too many new accounts from here." : null);
  const email = () => `cap-${Math.random()}@example.test`;
  // Refused attempts are not asked about, so they spend nothing.
  await expect(signUp(t.app, { organisation: "Cap Bank", email: email(), password: "short" }, admit)).rejects.toThrow();
  await expect(
    signUp(t.app, { organisation: "C", email: email(), password: "long-enough-pw" }, admit),
  ).rejects.toThrow();
  expect(asked).toBe(0);
  const first = await signUp(t.app, { organisation: "Cap Bank", email: email(), password: "long-enough-pw" }, admit);
  expect(first.partnerId).toBeTruthy();
  const second = email();
  await expect(
    signUp(t.app, { organisation: "Cap Bank Two", email: second, password: "long-enough-pw" }, admit),
  ).rejects.toThrow("Too many new accounts from here.");
  expect(asked).toBe(2);
  expect(await findUserByEmail(t.app.db, second)).toBeNull();
  const partners = await t.app.db.select().from(schema.partners).where(eq(schema.partners.name, "Cap Bank Two"));
  expect(partners).toHaveLength(0);
  // A taken email is counted too (its answer says an account has it): probing for accounts spends the cap,
  // and once it is spent says nothing of the email.
  const taken = { organisation: "Cap Bank Three", email: first.email, password: "long-enough-pw" };
  await expect(signUp(t.app, taken, admit)).rejects.toThrow("Too many new accounts from here.");
  expect(asked).toBe(3);
  await expect(signUp(t.app, taken, async () => null)).rejects.toThrow(/already exists/);
});
