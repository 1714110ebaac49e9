// The webhooks benchmark's baseline, in a process of its own as a worker is: every event of the
// database's (DATABASE_URL) first `--count`, its wire body made beforehand, then signed and POSTed
// (lib/webhooks/send: kept-alive connections) from `--concurrency` loops to `--url`; prints
// `{"sent", "ok", "seconds"}` on its last line.
import { parseArgs } from "node:util";
import { asc } from "drizzle-orm";
import { openDatabase, schema } from "@/lib/db";
import { messageIdOf, wirePayload } from "@/lib/webhooks/events";
import { sendWebhook } from "@/lib/webhooks/send";
import { webhookHeaders } from "@/lib/webhooks/sign";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    secret: { type: "string" },
    count: { type: "string" },
    concurrency: { type: "string" },
  },
});
const database = await openDatabase({ url: process.env.DATABASE_URL! });
const rows = await database.db
  .select()
  .from(schema.events)
  .orderBy(asc(schema.events.createdAt))
  .limit(Number(values.count));
await database.close();
const messages = rows.map((event) => ({ id: messageIdOf(event.id), body: wirePayload(event) }));
let next = 0;
let ok = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: Number(values.concurrency) }, async () => {
    while (next < messages.length) {
      const { id, body } = messages[next++]!;
      const result = await sendWebhook(values.url!, webhookHeaders([values.secret!], id, new Date(), body), body, {
        timeoutMs: 15_000,
        allowPrivate: true,
        requireHttps: false,
      });
      if (result.ok) ok++;
    }
  }),
);
console.log(JSON.stringify({ sent: messages.length, ok, seconds: (performance.now() - started) / 1000 }));
