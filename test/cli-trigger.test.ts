// `finca trigger`: the CLI makes test-mode data whose processing records the event asked for (what
// a `finca listen` session and the test endpoints then receive); a live key and an unknown event
// type are refused before anything is sent.
import { mkdtemp, rm, stat } from "node:fs/promises";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { schema } from "@/lib/db";
import { createPartnerApiServer } from "@/lib/partner-api/node-server";
import { createTestApp, newPartnerKey, type TestApp } from "./support/app";
import { NEVER_MS } from "./support/bounds";
import { runNode } from "./support/processes";
import { eventually } from "./support/wait";

let t: TestApp;
let server: Server;
let base = "";
beforeAll(async () => {
  t = await createTestApp({ workers: true });
  server = createPartnerApiServer(t.api);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const finca = (args: string[], env: Record<string, string>) =>
  runNode("scripts/finca.ts", args, { env: { FINCA_URL: base, ...env }, timeoutMs: NEVER_MS });
const trigger = (key: string, type: string) => finca(["trigger", type], { FINCA_API_KEY: key });

const eventsOf = (partnerId: string, type: string) =>
  t.app.db
    .select()
    .from(schema.events)
    .where(and(eq(schema.events.partnerId, partnerId), eq(schema.events.type, type)));

it.each(["property.enriched", "batch.completed"])(
  "trigger %s makes test data that records that event",
  async (type) => {
    const { key, partner } = await newPartnerKey(t.app);
    const run = await trigger(key, type);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${type} follows`);
    const [event] = await eventually(`a ${type} event`, async () => {
      const found = await eventsOf(partner.id, type);
      return found.length ? found : null;
    });
    expect(event!.mode).toBe("test");
  },
  NEVER_MS,
);

it(
  "refuses a live key and an unknown event type, sending nothing",
  async () => {
    const live = await newPartnerKey(t.app, "live");
    const refused = await trigger(live.key, "property.enriched");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("trigger works with test keys only");
    const { key, partner } = await newPartnerKey(t.app);
    const unknown = await trigger(key, "property.created");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("trigger takes property.enriched or batch.completed");
    expect(
      await t.app.db.select().from(schema.properties).where(eq(schema.properties.partnerId, partner.id)),
    ).toHaveLength(0);
  },
  NEVER_MS,
);

it(
  "finca login keeps the key in a file only the user can read; trigger then needs no key; logout forgets it",
  async () => {
    const { key, partner } = await newPartnerKey(t.app);
    const config = await mkdtemp(path.join(tmpdir(), "finca-login-"));
    try {
      const env = { XDG_CONFIG_HOME: config, FINCA_API_KEY: "" };
      const login = await finca(["login", "--key", key], env);
      expect(login.code, login.stderr).toBe(0);
      const file = path.join(config, "finca", "credentials.json");
      expect(login.stdout).toContain(file);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(path.dirname(file))).mode & 0o077).toBe(0);
      expect((await finca(["trigger", "property.enriched"], env)).code).toBe(0);
      await eventually("the stored key's property", async () =>
        (await t.app.db.select().from(schema.properties).where(eq(schema.properties.partnerId, partner.id))).length
          ? true
          : null,
      );
      expect((await finca(["logout"], env)).code).toBe(0);
      const after = await finca(["trigger", "property.enriched"], env);
      expect(after.code).toBe(2);
      expect(after.stderr).toContain("--key (or FINCA_API_KEY, or finca login) is required");
      expect((await finca(["login", "--key", "not-a-key"], env)).code).toBe(1);
    } finally {
      await rm(config, { recursive: true, force: true });
    }
  },
  NEVER_MS,
);
