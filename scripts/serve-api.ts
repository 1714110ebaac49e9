// The partner API alone on a lean node:http server (no Next.js): the same handlers, for an
// API-only deployment and to measure what the framework costs (bench/create).
//   DATABASE_URL=… PORT=4000 npx tsx scripts/serve-api.ts
import http from "node:http";
import { Readable } from "node:stream";
import { getApp } from "@/lib/app";
import { createPartnerApi, notFound, openApi } from "@/lib/partner-api";
import type { Handler } from "@/lib/partner-api/route";

const api = createPartnerApi(await getApp());
const BASE = "/api/v1/partner-api";

const routes: [string, RegExp, Handler][] = [
  ["POST", /^\/properties\/?$/, api.createProperty],
  ["GET", /^\/properties\/?$/, api.listProperties],
  ["GET", /^\/properties\/[^/]+\/?$/, api.getProperty],
  ["GET", /^\/webhook-endpoints\/?$/, api.listWebhookEndpoints],
  ["POST", /^\/webhook-endpoints\/?$/, api.createWebhookEndpoint],
  ["DELETE", /^\/webhook-endpoints\/[^/]+\/?$/, api.deleteWebhookEndpoint],
  ["GET", /^\/openapi\.json$/, openApi],
];

function route(method: string, pathname: string): Handler {
  if (!pathname.startsWith(BASE)) return notFound;
  const rest = pathname.slice(BASE.length);
  return routes.find(([m, re]) => m === method && re.test(rest))?.[2] ?? notFound;
}

const server = http.createServer(async (req, res) => {
  const url = `http://${req.headers.host ?? "localhost"}${req.url}`;
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(url, {
    method: req.method,
    headers: req.headers as Record<string, string>,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    // @ts-expect-error Node's fetch needs duplex for streamed request bodies
    duplex: "half",
  });
  const response = await route(req.method ?? "GET", new URL(url).pathname)(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 4000), () => console.log(`[finca] partner API on :${process.env.PORT ?? 4000}`));
