// `finca listen`: the CLI as a partner runs it, against the lean server, forwards a test-mode
// `property.enriched` (a `9100` reference, finished by the durable retry) to a local receiver,
// signed so that the standardwebhooks verifier accepts it with the secret the CLI printed.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { checkLetters } from "@/lib/cadastral-reference";
import { createPartnerApiServer } from "@/lib/partner-api/node-server";
import { listenSecret } from "@/lib/webhooks/listen";
import { createTestApp, get, newPartnerKey, post, type TestApp } from "../support/app";
import { runNode, startNode, stopAll, stopGroup } from "../support/processes";
import { eventually } from "../support/wait";
import { NEVER_MS } from "../support/bounds";

let t: TestApp;
let server: Server;
let receiver: Server;
let base = "";
let target = "";
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  t = await createTestApp({ workers: true, env: { LISTEN_POLL_MS: "100", LISTEN_MAX_SESSIONS: "1" } });
  server = createPartnerApiServer(t.api);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterEach(stopAll);
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const SLOW = (() => {
  const parcelUnit = "2749704YJ0624N" + "9100";
  return parcelUnit + checkLetters(parcelUnit);
})();

it(
  "forwards a 9100 property.enriched, signed as a delivery, verified with the printed secret",
  async () => {
    const { key } = await newPartnerKey(t.app);
    const cli = startNode("scripts/finca.ts", ["listen", "--key", key, "--forward-to", target, "--base-url", base]);
    let out = "";
    cli.stdout!.on("data", (chunk) => (out += chunk));
    cli.stderr!.on("data", (chunk) => (out += chunk));
    const secret = await eventually(
      `the CLI prints its secret (output so far: ${out})`,
      () => /Signing secret: (whsec_\S+)/.exec(out)?.[1],
    );
    expect(secret).toBe(listenSecret(key));

    const created = await t.api.createProperty(
      post("/properties", { cadastral_reference: SLOW }, { "X-API-Key": key }),
    );
    expect(created.status).toBe(201);
    const { property_id, status } = await created.json();
    expect(status).toBe("enriching");
    const delivered = await eventually("the event forwarded", () => received.find((r) => r.body.includes(property_id)));
    const event = new Webhook(secret).verify(delivered.body, delivered.headers as Record<string, string>) as {
      type: string;
      data: { status: string };
    };
    expect(event).toMatchObject({ type: "property.enriched", data: { property_id, status: "enriched" } });
    expect(delivered.headers["webhook-id"]).toMatch(/^msg_/);
    await eventually("the answer printed", () =>
      out.includes(`--> property.enriched [${delivered.headers["webhook-id"]}]  <-- 204`),
    );

    // One session per partner here (LISTEN_MAX_SESSIONS=1): a second is refused while the first is open.
    const second = await t.api.listenWebhooks(get("/webhooks/listen", { "X-API-Key": key }));
    expect(second.status).toBe(429);
    await stopGroup(cli);
    // Once the CLI is gone, its slot is free again.
    await eventually("the slot freed", async () => {
      const again = await fetch(`${base}/api/v1/partner-api/webhooks/listen`, { headers: { "X-API-Key": key } });
      await again.body?.cancel();
      return again.status === 200;
    });
  },
  NEVER_MS,
);

it(
  "refuses a live key, and the CLI stops with the server's reason",
  async () => {
    const { key } = await newPartnerKey(t.app, "live");
    const res = await t.api.listenWebhooks(get("/webhooks/listen", { "X-API-Key": key }));
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toMatch(/test keys only/);
    const run = await runNode(
      "scripts/finca.ts",
      ["listen", "--key", key, "--forward-to", target, "--base-url", base],
      { timeoutMs: NEVER_MS },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/422.*test keys only/);
    // The key from the environment (out of ps) goes the same way; none at all is a usage error.
    const fromEnv = await runNode("scripts/finca.ts", ["listen", "--forward-to", target, "--base-url", base], {
      env: { FINCA_API_KEY: key },
      timeoutMs: NEVER_MS,
    });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toMatch(/422.*test keys only/);
    const none = await runNode("scripts/finca.ts", ["listen", "--forward-to", target, "--base-url", base], {
      // No finca login either: a config folder that does not exist.
      env: { FINCA_API_KEY: "", XDG_CONFIG_HOME: `/nonexistent/finca-${process.pid}` },
      timeoutMs: NEVER_MS,
    });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain("--key (or FINCA_API_KEY, or finca login) is required");
  },
  NEVER_MS,
);
