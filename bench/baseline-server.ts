// Baseline for bench/create: a bare node:http server doing the same insert as a create (property
// + its source rows, one transaction) with none of the API around it.
import http from "node:http";
import { openDatabase, schema } from "@/lib/db";
import { SOURCES } from "@/drizzle/schema";

const database = await openDatabase({ url: process.env.DATABASE_URL, poolSize: 20 });
const partnerId = process.env.BENCH_PARTNER_ID!;

http
  .createServer(async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(204).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    try {
      const { cadastral_reference } = JSON.parse(Buffer.concat(chunks).toString());
      const row = await database.db.transaction(async (tx) => {
        const [p] = await tx.insert(schema.properties).values({ partnerId, mode: "test", cadastralReference: cadastral_reference }).returning();
        await tx.insert(schema.enrichmentSources).values(SOURCES.map((source) => ({ propertyId: p!.id, source })));
        return p!;
      });
      res.writeHead(201, { "Content-Type": "application/json" }).end(JSON.stringify(row));
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  })
  .listen(Number(process.env.PORT), "127.0.0.1");
