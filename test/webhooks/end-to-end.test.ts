import { afterAll, beforeAll, describe, expect, it } from "vitest";
import net from "node:net";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { schema } from "@/lib/db";
import { scenarioReference } from "@/lib/enrichment/sources/sandbox";
import { createTestApp, get, newPartnerKey, post, type TestApp } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";
import { eventually } from "../support/wait";

// Real sandbox registers, real workers (pg-boss), a real receiver.
let t: TestApp;
let key: string;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await createTestApp({
    workers: true,
    env: {
      ENRICHMENT_DEADLINE_MS: "400",
      ENRICHMENT_RETRY_SCHEDULE_TEST: "1,2,4",
      ENRICHMENT_RETRY_JITTER: "0",
      FINCA_WEBHOOKS_ALLOW_PRIVATE: "1",
      WEBHOOK_RETRY_SCHEDULE_TEST: "1,1,1,1,1,1",
      JOB_POLL_SECONDS: "0.5",
    },
  });
  ({ key } = await newPartnerKey(t.app));
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await t.close();
});

describe("end to end", () => {
  it("create (scenario 9100) → property.enriched is received and verifies", async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const created = await t.api.createWebhookEndpoint(
      post("/webhook-endpoints", { url: receiver.url }, { "X-API-Key": key }),
    );
    expect(created.status).toBe(201);
    const { secret } = await created.json();

    const res = await t.api.createProperty(
      post("/properties", { cadastral_reference: scenarioReference("9100") }, { "X-API-Key": key }),
    );
    const property = await res.json();
    expect(property.status).toBe("enriching");

    const hit = await eventually("property.enriched reaches the receiver", async () =>
      receiver.received.find((r) => JSON.parse(r.body).data?.property_id === property.property_id),
    );
    const payload = new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload.type).toBe("property.enriched");
    expect(payload.data).toMatchObject({
      property_id: property.property_id,
      status: "enriched",
      cadastral_reference: scenarioReference("9100"),
    });
    const now = await (
      await t.api.getProperty(get(`/properties/${property.property_id}`, { "X-API-Key": key }))
    ).json();
    expect(now.status).toBe("enriched");
    expect(now.enrichment.cadastre.attempts).toBe(2);
  });

  it("every sandbox scenario reaches its final state", async () => {
    const expected: Record<"9200" | "9300" | "9404", object> = {
      "9200": { status: "enriched", enrichment: { energy_certificate: { status: "completed", attempts: 3 } } },
      "9300": {
        status: "partially_enriched",
        ite_fetch_status: "failed",
        enrichment: { ite: { status: "failed", attempts: 4 } },
      },
      "9404": { status: "not_found" },
    };
    const ids = await Promise.all(
      (Object.keys(expected) as (keyof typeof expected)[]).map(async (unit) => {
        const res = await t.api.createProperty(
          post("/properties", { cadastral_reference: scenarioReference(unit) }, { "X-API-Key": key }),
        );
        return [unit, (await res.json()).property_id] as const;
      }),
    );
    for (const [unit, id] of ids) {
      const final = await eventually(`scenario ${unit} reaches a final status`, async () => {
        const p = await (await t.api.getProperty(get(`/properties/${id}`, { "X-API-Key": key }))).json();
        return p.status !== "enriching" && p;
      });
      expect(final).toMatchObject(expected[unit]!);
    }
  });

  it("a receiver that is down for several attempts gets the event afterwards", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const created = await t.api.createWebhookEndpoint(
      post("/webhook-endpoints", { url: `http://127.0.0.1:${port}/hooks` }, { "X-API-Key": key }),
    );
    const endpoint = await created.json();
    const res = await t.api.createProperty(
      post("/properties", { cadastral_reference: scenarioReference("9100", "6344205CF7664S") }, { "X-API-Key": key }),
    );
    const property = await res.json();

    const { webhookDeliveries, webhookAttempts } = schema;
    const delivery = await eventually("two delivery attempts fail against the closed port", async () => {
      const [d] = await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
      return d && d.attempts >= 2 && d;
    });
    const receiver = await startReceiver(port);
    receivers.push(receiver);
    const hit = await eventually("the event reaches the receiver once it is up", async () =>
      receiver.received.find((r) => JSON.parse(r.body).data?.property_id === property.property_id),
    );
    expect(hit.headers["webhook-id"]).toBe(delivery.messageId);
    const log = await eventually("the attempt log ends with the 200", async () => {
      const rows = await t.app.db
        .select()
        .from(webhookAttempts)
        .where(eq(webhookAttempts.deliveryId, delivery.id))
        .orderBy(webhookAttempts.id);
      return rows.at(-1)?.statusCode === 200 && rows;
    });
    expect(log.slice(0, 2).map((a) => a.errorClass)).toEqual(["refused", "refused"]);
  });
});
