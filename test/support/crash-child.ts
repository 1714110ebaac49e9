// Child process for the durability tests; it always dies by SIGKILL (no cleanup, like a crash).
//   create <db>: registers one property whose cadastre hangs past the deadline, prints it, dies.
//   worker <db>: runs the workers; the first register call of a job kills the process mid-job.
//   batch-worker <db> <n>: runs the workers; the n-th register call kills the process mid-batch.
import { createApp } from "@/server/app";
import { loadConfig } from "@/lib/config";
import { openDatabase } from "@/lib/db";
import { createPartnerApi } from "@/lib/partner-api";
import { createApiKey } from "@/lib/api-keys";
import { createPartner } from "@/lib/partners";
import { fakeSources } from "./fake-sources";

const [mode, target] = process.argv.slice(2);
const database = await openDatabase(target!.startsWith("postgres") ? { url: target } : { dataDir: target });
const sources = fakeSources();
const die = () => process.kill(process.pid, "SIGKILL");
// Its stdout is the test's channel: no log lines on it.
const env = {
  LOG_LEVEL: "silent",
  ENRICHMENT_DEADLINE_MS: "200",
  JOB_EXPIRE_SECONDS: "2",
  JOB_MAINTENANCE_SECONDS: "1",
  JOB_POLL_SECONDS: "0.5",
};

if (mode === "create") {
  const hang = { lookup: () => new Promise<never>(() => {}) };
  const app = await createApp({
    config: loadConfig(env),
    database,
    workers: false,
    env,
    sources: { test: { ...sources.test, cadastre: hang }, live: sources.live },
  });
  const partner = await createPartner(app.db, "Crash Partner");
  const { key } = await createApiKey(app.db, { partnerId: partner.id, mode: "test", name: "k" });
  const res = await createPartnerApi(app).createProperty(
    new Request("http://finca.test/api/v1/partner-api/properties", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": key },
      body: JSON.stringify({ cadastral_reference: "2749704YJ0624N0001DI" }),
    }),
  );
  const body = await res.json();
  process.stdout.write(JSON.stringify({ status: res.status, id: body.property_id, state: body.status }) + "\n", die);
} else if (mode === "batch-worker") {
  let calls = 0;
  const after = Number(process.argv[4]);
  const counted = <T extends { lookup: (...args: never[]) => Promise<unknown> }>(source: T): T => ({
    ...source,
    lookup: (...args: Parameters<T["lookup"]>) =>
      ++calls >= after
        ? (process.stdout.write("mid-batch\n", die), new Promise<never>(() => {}))
        : source.lookup(...args),
  });
  const test = {
    cadastre: counted(sources.test.cadastre),
    energyCertificate: counted(sources.test.energyCertificate),
    ite: counted(sources.test.ite),
  };
  await createApp({
    config: loadConfig({ ...env, BATCH_WINDOW: "10" }),
    database,
    workers: true,
    env,
    sources: { test, live: sources.live },
  });
} else {
  const killer = { lookup: () => (process.stdout.write("mid-job\n", die), new Promise<never>(() => {})) };
  await createApp({
    config: loadConfig(env),
    database,
    workers: true,
    env,
    sources: { test: { ...sources.test, cadastre: killer }, live: sources.live },
  });
}
