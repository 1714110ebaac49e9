// Child process for the durability test: registers one property whose cadastre is slower than the
// deadline, prints its id, then dies with SIGKILL (no cleanup, like a crashed server).
import { createApp } from "@/lib/app";
import { loadConfig } from "@/lib/config";
import { openDatabase } from "@/lib/db";
import { createPartnerApi } from "@/lib/partner-api";
import { createApiKey } from "@/lib/api-keys";
import { createPartner } from "@/lib/partners";
import { fakeSources } from "./fake-sources";

const [target] = process.argv.slice(2);
const database = await openDatabase(target!.startsWith("postgres") ? { url: target } : { dataDir: target });
const sources = fakeSources();
const hang = { lookup: () => new Promise<never>(() => {}) };
const env = { ENRICHMENT_DEADLINE_MS: "200" };
const app = await createApp({ config: loadConfig(env), database, workers: false, env, sources: { test: { ...sources.test, cadastre: hang }, live: sources.live } });
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
process.stdout.write(JSON.stringify({ status: res.status, id: body.property_id, state: body.status }) + "\n", () => {
  process.kill(process.pid, "SIGKILL");
});
