// Live mode is one rule, checked by the commands themselves: an organisation without live access (never
// granted, refused, or revoked since) makes no live write through any command, and no live register is
// asked for it; a live portfolio running when access is taken away stops at its next step, and the
// durable runs of its live properties end without asking the live registers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { schema } from "@/lib/db";
import type { Scope } from "@/lib/domain";
import { cancelBatch, exportResults, runBatchStep, submitBatch } from "@/lib/batches";
import { createProperty, runEnrichmentJobs } from "@/lib/properties";
import { decideLiveAccess, NO_LIVE_ACCESS } from "@/lib/partners/live";
import { createPartner } from "@/lib/partners";
import { addEndpoint, changeEndpoint, removeEndpoint } from "@/lib/webhooks/commands";
import { createEndpoint, expirePreviousSecret, rotateSecret } from "@/lib/webhooks/endpoints";
import { replayDelivery, replayFailedSince, sendTestEvent } from "@/lib/webhooks/replay";
import { checkLetters } from "@/lib/cadastral-reference";
import { createTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";
import { refusal } from "../support/team";

const liveCalls: string[] = [];
let t: TestApp;
beforeAll(async () => {
  // The sandbox answers test mode; live mode's stand-in register logs every request it receives.
  t = await createTestApp({
    sources: { test: fakeSources().test, live: fakeSources(liveCalls).live },
    env: { BATCH_WINDOW: "2", FINCA_WEBHOOKS_ALLOW_PRIVATE: "1" },
  });
});
afterAll(() => t.close());

const unit = (n: number) => {
  const parcel = `${String(4100000 + n).padStart(7, "0")}YJ0624N`;
  return `${parcel}0001${checkLetters(`${parcel}0001`)}`;
};
const free = async () => {};
const writer = { actor: { userId: null, label: "key", address: null }, budget: free };
const access = (partnerId: string, approve: boolean) =>
  decideLiveAccess(t.app.db, partnerId, approve, { waiting: false });
let partners = 0;
const liveScope = async (): Promise<Scope> => ({
  partnerId: (await createPartner(t.app.db, `Live gate ${process.pid}-${++partners}`)).id,
  mode: "live",
});
const submission = (references: string[]) => async () => ({
  name: null,
  items: references.map((reference) => ({ reference, externalId: null })),
  idempotencyKey: null,
  requestHash: references.join(","),
});
const rowsOf = async (scope: Scope) => ({
  properties: await t.app.db
    .select()
    .from(schema.properties)
    .where(and(eq(schema.properties.partnerId, scope.partnerId), eq(schema.properties.mode, "live"))),
  batches: await t.app.db
    .select()
    .from(schema.batches)
    .where(and(eq(schema.batches.partnerId, scope.partnerId), eq(schema.batches.mode, "live"))),
});

describe("live commands of an organisation without live access", () => {
  it("are refused, whether never granted or refused, and no live register is asked", async () => {
    for (const decided of [null, false] as const) {
      const scope = await liveScope();
      if (decided !== null) await access(scope.partnerId, decided);
      liveCalls.length = 0;
      const commands = [
        () => createProperty(t.app, scope, free, { cadastral_reference: unit(1) }),
        () => submitBatch(t.app, scope, free, submission([unit(2), unit(3)])),
        () => addEndpoint(t.app, scope, writer, { url: "https://example.com/hooks" }),
        () => exportResults(t.app.db, scope, "00000000-0000-4000-8000-000000000000"),
      ];
      for (const command of commands)
        expect(await refusal(command())).toMatchObject({ code: "forbidden", detail: NO_LIVE_ACCESS });
      expect(liveCalls).toEqual([]);
      expect(await rowsOf(scope)).toEqual({ properties: [], batches: [] });
    }
  });

  it("a revocation holds from the next request, for every endpoint command", async () => {
    const scope = await liveScope();
    await access(scope.partnerId, true);
    const { endpoint } = await addEndpoint(t.app, scope, writer, { url: "https://example.com/hooks" });
    const made = await createEndpoint(
      t.app.db,
      scope,
      { url: "https://example.com/other" },
      { allowPrivate: true, maxEndpoints: 20 },
    );
    await access(scope.partnerId, false);
    const commands = [
      () => changeEndpoint(t.app, scope, writer, endpoint.id, { description: "x" }),
      () => removeEndpoint(t.app, scope, writer, endpoint.id),
      () => rotateSecret(t.app.db, scope, endpoint.id),
      () => expirePreviousSecret(t.app.db, scope, endpoint.id),
      () => sendTestEvent(t.app, made.endpoint),
      () => replayDelivery(t.app, "00000000-0000-4000-8000-000000000000", scope),
      () => replayFailedSince(t.app, endpoint.id, new Date(0), scope),
    ];
    for (const command of commands)
      expect(await refusal(command())).toMatchObject({ code: "forbidden", detail: NO_LIVE_ACCESS });
    // The test mode of the same organisation stays open.
    const test = { ...scope, mode: "test" as const };
    expect((await createProperty(t.app, test, free, { cadastral_reference: unit(9) })).created).toBe(true);
  });
});

describe("a running live portfolio", () => {
  it("stops at its next step once live access is taken away; its live runs end without asking", async () => {
    const scope = await liveScope();
    await access(scope.partnerId, true);
    const references = [10, 11, 12, 13, 14].map(unit);
    const { batch } = await submitBatch(t.app, scope, free, submission(references));
    const step = async () => {
      const [row] = await t.app.db.select().from(schema.batches).where(eq(schema.batches.id, batch.batch_id));
      await runBatchStep(t.app, { batchId: batch.batch_id, step: row!.step });
      return (await t.app.db.select().from(schema.batches).where(eq(schema.batches.id, batch.batch_id)))[0]!;
    };
    // The first step registers the window's two references.
    expect((await step()).counts).toMatchObject({ total: 5, pending: 5 });
    const registered = (await rowsOf(scope)).properties;
    expect(registered.map((p) => p.cadastralReference).sort()).toEqual(references.slice(0, 2).sort());

    await access(scope.partnerId, false);
    liveCalls.length = 0;
    const stopped = await step();
    expect(stopped.status).toBe("cancelled");
    expect(stopped.counts).toMatchObject({ cancelled: 3, pending: 2 });
    expect((await rowsOf(scope)).properties).toHaveLength(2);

    // The two registered properties' durable runs end at once, asking nothing.
    await runEnrichmentJobs(
      t.app,
      registered.map((p) => ({ propertyId: p.id, run: p.enrichmentRun })),
    );
    expect(liveCalls).toEqual([]);
    const sources = await t.app.db
      .select()
      .from(schema.enrichmentSources)
      .where(eq(schema.enrichmentSources.propertyId, registered[0]!.id));
    // The cadastre gave up for that reason; the sources that need its answer settle as they do without it.
    expect(sources.map((s) => s.status)).toEqual(["failed", "failed", "failed"]);
    expect(sources.find((s) => s.source === "cadastre")!.lastError).toBe("live_access_ended");
    const done = await step();
    expect(done).toMatchObject({ status: "cancelled", completedAt: expect.any(Date) });
    expect(done.counts).toMatchObject({ pending: 0, cancelled: 3 });
    // A cancel by the partner afterwards is refused like any live command.
    expect(await refusal(cancelBatch(t.app, scope, free, batch.batch_id))).toMatchObject({ code: "forbidden" });
  });
});
