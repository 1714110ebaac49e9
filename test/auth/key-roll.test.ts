// Rolling a key (Stripe's "roll key"): the new key works at once, the old one until its expiry.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, get, newPartnerKey, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { keyIsActive, listApiKeys, revokeApiKey, rollApiKey } from "@/lib/api-keys";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

const status = async (key: string) => (await t.api.listProperties(get("/properties", { "X-API-Key": key }))).status;

describe("rolling a key", () => {
  it("keeps the old key working until its expiry, with the same name and mode", async () => {
    const made = await newPartnerKey(t.app);
    const before = Date.now();
    const rolled = await rollApiKey(t.app.db, {
      id: made.apiKey.id,
      partnerId: made.apiKey.partnerId,
      expiresInSeconds: 3600,
    });
    expect(rolled).not.toBeNull();
    expect(rolled!.apiKey).toMatchObject({ name: made.apiKey.name, mode: made.apiKey.mode, expiresAt: null });
    // The database clock sets the expiry: an hour from about now.
    const expiresIn = rolled!.rolled.expiresAt!.getTime() - before;
    expect(expiresIn).toBeGreaterThan(3590_000);
    expect(expiresIn).toBeLessThan(3700_000);
    expect(await status(made.key)).toBe(200);
    expect(await status(rolled!.key)).toBe(200);
  });

  it("never lengthens an expiry the key already has", async () => {
    const made = await newPartnerKey(t.app);
    const first = await rollApiKey(t.app.db, {
      id: made.apiKey.id,
      partnerId: made.apiKey.partnerId,
      expiresInSeconds: 3600,
    });
    const second = await rollApiKey(t.app.db, {
      id: made.apiKey.id,
      partnerId: made.apiKey.partnerId,
      expiresInSeconds: 7 * 86_400,
    });
    expect(second!.rolled.expiresAt!.getTime()).toBe(first!.rolled.expiresAt!.getTime());
  });

  it("refuses another partner's key, a revoked key and an expired key", async () => {
    const made = await newPartnerKey(t.app);
    const stranger = await newPartnerKey(t.app);
    expect(
      await rollApiKey(t.app.db, { id: made.apiKey.id, partnerId: stranger.apiKey.partnerId, expiresInSeconds: 0 }),
    ).toBeNull();
    const expired = await rollApiKey(t.app.db, {
      id: made.apiKey.id,
      partnerId: made.apiKey.partnerId,
      expiresInSeconds: 0,
    });
    expect(
      await rollApiKey(t.app.db, { id: made.apiKey.id, partnerId: made.apiKey.partnerId, expiresInSeconds: 0 }),
    ).toBeNull();
    await revokeApiKey(t.app.db, expired!.apiKey.id);
    expect(
      await rollApiKey(t.app.db, { id: expired!.apiKey.id, partnerId: made.apiKey.partnerId, expiresInSeconds: 60 }),
    ).toBeNull();
    expect(await status(made.key)).toBe(401);
  });

  it("answers nothing (not a database error) for an id that is not a UUID, as a crafted form sends", async () => {
    const made = await newPartnerKey(t.app);
    for (const id of ["x", "1; drop table api_keys", `${made.apiKey.id}0`]) {
      expect(await rollApiKey(t.app.db, { id, partnerId: made.apiKey.partnerId, expiresInSeconds: 0 })).toBeNull();
      expect(await revokeApiKey(t.app.db, id)).toBeNull();
      expect(await revokeApiKey(t.app.db, id, made.apiKey.partnerId)).toBeNull();
    }
    expect(await status(made.key)).toBe(200);
  });

  it("lists the expired key as inactive", async () => {
    const made = await newPartnerKey(t.app);
    await rollApiKey(t.app.db, { id: made.apiKey.id, partnerId: made.apiKey.partnerId, expiresInSeconds: 0 });
    const keys = await listApiKeys(t.app.db, { partnerId: made.apiKey.partnerId });
    const now = new Date();
    expect(keys.filter((k) => keyIsActive(k, now))).toHaveLength(1);
    expect(keys.find((k) => k.id === made.apiKey.id)!.expiresAt).not.toBeNull();
    expect(keyIsActive(keys.find((k) => k.id === made.apiKey.id)!, now)).toBe(false);
  });
});
