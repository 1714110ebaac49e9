// @upstash/redis's requester (its documented `new Redis(requester)`) over node's HTTP client with
// kept-alive connections. The library's own requester is fetch: each hit made a Request, a Response,
// their web streams and a timeout signal, which took a create through the Upstash limiter twice the
// server CPU of one through the database's (bench/create's upstash target). The protocol is the
// library's: the command as JSON, POSTed to the REST URL (and a path: /pipeline, /multi-exec) with the
// token as Bearer; the answer's JSON as it comes; an answer outside 2xx thrown with its error (the
// limiter falls back from EVALSHA to EVAL on a NOSCRIPT in that message); the sync token sent back,
// so that each command sees the writes before it (the library's default, readYourWrites).
import http from "node:http";
import https from "node:https";
import type { Requester, UpstashRequest, UpstashResponse } from "@upstash/redis";

const SYNC_TOKEN = "upstash-sync-token";

/** Requests to the REST API at `url`, each failed after `timeoutMs` without a whole answer. */
export function upstashRequester(url: string, token: string, timeoutMs: number): Requester {
  const base = new URL(url);
  const client = base.protocol === "https:" ? https : http;
  const agent = new client.Agent({ keepAlive: true });
  const basePath = base.pathname.replace(/\/$/, "");
  const requester: Requester = {
    readYourWrites: true,
    upstashSyncToken: "",
    request<T>(req: UpstashRequest): Promise<UpstashResponse<T>> {
      const body = JSON.stringify(req.body);
      const headers: Record<string, string | number> = {
        ...req.headers,
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(body),
      };
      if (requester.upstashSyncToken) headers[SYNC_TOKEN] = requester.upstashSyncToken;
      return new Promise((resolve, reject) => {
        const request = client.request(
          {
            host: base.hostname,
            port: base.port,
            path: [basePath, ...(req.path ?? [])].join("/") || "/",
            method: "POST",
            headers,
            agent,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("error", fail);
            res.on("end", () => {
              clearTimeout(timer);
              const status = res.statusCode ?? 0;
              const text = Buffer.concat(chunks).toString("utf8");
              let answer: UpstashResponse<T>;
              try {
                answer = JSON.parse(text) as UpstashResponse<T>;
              } catch {
                return reject(new Error(`Upstash answered ${status} with no JSON: ${text.slice(0, 200)}`));
              }
              if (status < 200 || status >= 300)
                return reject(new Error(`Upstash answered ${status}: ${answer.error}`));
              const sync = res.headers[SYNC_TOKEN];
              if (typeof sync === "string") requester.upstashSyncToken = sync;
              resolve(answer);
            });
          },
        );
        function fail(error: Error) {
          clearTimeout(timer);
          reject(error);
        }
        const timer = setTimeout(
          () => request.destroy(new Error(`Upstash did not answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
        request.on("error", fail);
        request.end(body);
      });
    },
  };
  return requester;
}
