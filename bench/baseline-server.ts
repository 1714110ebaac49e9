// Baseline for bench/create: a bare node:http server doing only the write a create does (the same
// statement: property + its three source rows + three attempt rows), with none of the API around
// it: no key, no rate limit, no validation, no enrichment.
import http from "node:http";
import { openDatabase } from "@/lib/db";
import { SOURCES } from "@/lib/domain";
import { newDraft } from "@/lib/enrichment/engine";
import { insertProperty } from "@/lib/properties/insert";
import { rowsOfNewProperty } from "@/lib/properties/register";

const database = await openDatabase({ url: process.env.DATABASE_URL, postgres: { poolSize: 20 } });
const partnerId = process.env.BENCH_PARTNER_ID!;

http
  .createServer(async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(204).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    try {
      const { cadastral_reference } = JSON.parse(Buffer.concat(chunks).toString());
      const now = new Date();
      const { property, sources } = rowsOfNewProperty(
        newDraft(cadastral_reference, "test", undefined, now),
        { partnerId, mode: "test" },
        "enriched",
        null,
        now,
      );
      // No register was asked; the attempt rows stand for the three a finished create logs.
      const attempts = SOURCES.map((source) => ({
        propertyId: property.id,
        source,
        attempt: 1,
        trigger: "inline" as const,
        outcome: "completed" as const,
        error: null,
        startedAt: now,
        durationMs: 0,
      }));
      await insertProperty(database.db, property, sources, attempts);
      res.writeHead(201, { "Content-Type": "application/json" }).end(JSON.stringify(property));
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  })
  .listen(Number(process.env.PORT), "127.0.0.1");
