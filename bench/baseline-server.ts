// Baselines for bench/create: a bare node:http server doing only the write a create does (the same
// statement: property + its three source rows + three attempt rows), with none of the API around
// it: no key, no rate limit, no validation, no enrichment. With BENCH_BASELINE=two-statements it
// first makes the API's own first statement (the key's check, the write's count on the database
// limiter and the repeat check: `admission` in lib/partner-api/route.ts), so the pair measures what
// a create's two round trips cost with nothing else of the API around them. Both write the rows a
// test-mode create writes (the sandbox registers' answer, made once at the start: the floor enriches
// nothing), so PostgreSQL's work per insert is the create's; before 2026-11-29 they wrote an
// unenriched draft (pending sources, no data), which left the API's PostgreSQL work looking larger.
import http from "node:http";
import { loadConfig } from "@/lib/config";
import { openDatabase } from "@/lib/db";
import { finalStatus, newDraft, runUntil } from "@/lib/enrichment/engine";
import { createSources } from "@/lib/enrichment/sources";
import { operations } from "@/lib/partner-api/operations";
import { admission } from "@/lib/partner-api/route";
import { insertProperty } from "@/lib/properties/insert";
import { rowsOfNewProperty } from "@/lib/properties/register";
import { databaseRateLimiter } from "@/lib/rate-limit";
import { liveRegisters, registerSettings } from "@/lib/registers";
import { benchReference } from "./lib";

const database = await openDatabase({ url: process.env.DATABASE_URL, postgres: { poolSize: 20 } });
const config = loadConfig();
const admit =
  process.env.BENCH_BASELINE === "two-statements"
    ? admission(
        {
          db: database.db,
          rateLimiter: databaseRateLimiter(database.db, config.RATE_LIMIT_WRITES, config.RATE_LIMIT_WINDOW_SECONDS),
        },
        operations.find((op) => op.id === "createProperty")!,
      )
    : null;
const partnerId = process.env.BENCH_PARTNER_ID!;
// The app's own test-mode registers' answers for 256 of the benchmark's references, spread over the
// ones a run sends, taken in turn: rows of 2.8–5.8 kB as JSON, averaging 4.22 kB (a run's 20,000: 4.25).
const testSources = createSources(config, { live: liveRegisters(registerSettings(process.env)) }).test;
const answers = await Promise.all(
  Array.from({ length: 256 }, async (_, i) => {
    const draft = newDraft(benchReference(i * 79), "test");
    const fail = (error: unknown) => {
      throw error;
    };
    await runUntil(
      draft,
      { sources: testSources, trigger: "inline", maxAttempts: 1, onError: fail },
      Date.now() + 60_000,
    );
    return draft;
  }),
);
let served = 0;

http
  .createServer(async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(204).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    try {
      const { cadastral_reference } = JSON.parse(Buffer.concat(chunks).toString());
      const admitted = admit && (await admit(req.headers["x-api-key"] as string, cadastral_reference));
      if (admitted && !admitted.decision?.allowed) return void res.writeHead(429).end();
      const scope = admitted?.principal ?? { partnerId, mode: "test" as const };
      const now = new Date();
      const answer = answers[served++ % answers.length]!;
      const { property, sources, attempts } = rowsOfNewProperty(
        { ...answer, reference: cadastral_reference },
        { partnerId: scope.partnerId, mode: scope.mode },
        finalStatus(answer),
        null,
        now,
      );
      await insertProperty(database.db, property, sources, attempts);
      res.writeHead(201, { "Content-Type": "application/json" }).end(JSON.stringify(property));
    } catch (error) {
      // A refused key (DomainError) is the API's 401; anything else is the benchmark's own failure.
      res.writeHead((error as { code?: string }).code === "missing_api_key" ? 401 : 500).end(String(error));
    }
  })
  .listen(Number(process.env.PORT), "127.0.0.1");
// A clean exit on the benchmark's stop, so that --cpu-prof writes its profile.
process.on("SIGTERM", () => process.exit(0));
