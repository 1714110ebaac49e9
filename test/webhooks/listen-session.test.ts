// A `finca listen` session is no longer than its key's life: revoked, or past the expiry a roll
// gave it, the stream ends within a key check (it kept receiving events until the client left);
// and a session ends after LISTEN_MAX_SESSION_SECONDS whatever happens (the CLI reconnects,
// authenticating again).
import { expect, it } from "vitest";
import { revokeApiKey, rollApiKey } from "@/lib/api-keys";
import { createApiKey } from "@/lib/api-keys";
import { get, grantLive, newPartnerKey, useTestApp, type TestApp } from "../support/app";

let t: TestApp;
useTestApp(
  {
    env: {
      LISTEN_POLL_MS: "50",
      LISTEN_KEY_CHECK_MS: "50",
      LISTEN_MAX_SESSION_SECONDS: "3",
      LISTEN_MAX_TOTAL_SESSIONS: "2",
      LISTEN_TEST_ONLY_PERCENT: "50",
    },
  },
  (ctx) => ({ t } = ctx),
);

/** The stream's events until it ends: [event, data] pairs. */
async function eventsUntilEnd(res: Response): Promise<[string, unknown][]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("event: "))
    .map((block) => {
      const [event, data] = block.split("\n");
      return [event!.slice("event: ".length), JSON.parse(data!.slice("data: ".length))];
    });
}

const listen = (key: string) => t.api.listenWebhooks(get("/webhooks/listen", { "X-API-Key": key }));

it("ends the stream once its key is revoked, saying why", async () => {
  const { key, apiKey } = await newPartnerKey(t.app);
  const res = await listen(key);
  expect(res.status).toBe(200);
  const ended = eventsUntilEnd(res);
  await revokeApiKey(t.app.db, apiKey.id);
  const events = await ended;
  expect(events[0]![0]).toBe("session");
  expect(events.at(-1)).toEqual(["error", { message: expect.stringMatching(/revoked or has expired/) }]);
  // Reconnecting is refused like any other request with that key.
  expect((await listen(key)).status).toBe(401);
});

it("ends the stream once a roll's expiry passes", async () => {
  const { key, apiKey, partner } = await newPartnerKey(t.app);
  const res = await listen(key);
  const ended = eventsUntilEnd(res);
  await rollApiKey(t.app.db, { id: apiKey.id, partnerId: partner.id, expiresInSeconds: 0 });
  expect((await ended).at(-1)![0]).toBe("error");
});

it("ends a session after LISTEN_MAX_SESSION_SECONDS, the key still good", async () => {
  const { key } = await newPartnerKey(t.app);
  const opened = Date.now();
  const events = await eventsUntilEnd(await listen(key));
  expect(Date.now() - opened).toBeGreaterThanOrEqual(3000);
  expect(events.at(-1)).toEqual(["end", { reason: "session_limit" }]);
  const again = await listen(key);
  expect(again.status).toBe(200);
  await again.body!.cancel();
});

it("keeps sessions for organisations with live access: test-only ones hold LISTEN_TEST_ONLY_PERCENT", async () => {
  const free = await newPartnerKey(t.app);
  const another = await newPartnerKey(t.app);
  const held = await listen(free.key);
  expect(held.status).toBe(200);
  // Of the process's 2 sessions, test-only organisations hold 1.
  const refused = await listen(another.key);
  expect(refused.status).toBe(429);
  expect((await refused.json()).detail).toMatch(/all the listen sessions it can/);
  const { partner } = await newPartnerKey(t.app);
  await grantLive(t.app, partner.id);
  const { key } = await createApiKey(t.app.db, { partnerId: partner.id, mode: "test", name: "listen" });
  const live = await listen(key);
  expect(live.status).toBe(200);
  await Promise.all([held.body!.cancel(), live.body!.cancel()]);
});
