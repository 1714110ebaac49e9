// One webhook POST: guarded DNS, no redirects, a hard time limit, at most 1 KiB of the answer kept.
import http from "node:http";
import https from "node:https";
import { blockedLiteral, guardedLookup, SsrfBlockedError, type Resolver } from "@/lib/http/ssrf";

export type ErrorClass = "timeout" | "dns" | "refused" | "tls" | "ssrf_blocked" | "network" | "http_status";

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  /** First KiB of the response body. */
  responseBody: string | null;
  errorClass: ErrorClass | null;
  error: string | null;
  /** Seconds from a Retry-After header (delta or HTTP date), when the receiver sent one. */
  retryAfterSeconds: number | null;
}

export interface SendOptions {
  timeoutMs: number;
  /** Lifts the address check (FINCA_WEBHOOKS_ALLOW_PRIVATE): development and tests only. */
  allowPrivate: boolean;
  /** Live endpoints: plain http is refused even if such a URL got into the database. */
  requireHttps: boolean;
  resolver?: Resolver;
}

const KEEP_BYTES = 1024;

function classify(error: NodeJS.ErrnoException): ErrorClass {
  if (error instanceof SsrfBlockedError) return "ssrf_blocked";
  const code = error.code ?? "";
  if (["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "ENODATA", "ESERVFAIL"].includes(code)) return "dns";
  if (code === "ECONNREFUSED") return "refused";
  if (
    /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code) ||
    /SSL|TLS|certificate/i.test(error.message)
  )
    return "tls";
  return "network";
}

function retryAfter(value: string | undefined): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.round((date - Date.now()) / 1000));
}

/** The kept prefix as text PostgreSQL can store (a NUL byte would make the attempt log fail). */
function bodyText(chunks: Buffer[]): string {
  return Buffer.concat(chunks).subarray(0, KEEP_BYTES).toString("utf8").replaceAll("\u0000", "\uFFFD");
}

export function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, "durationMs" | "ok">): SendResult => ({
    ...r,
    ok: r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300,
    durationMs: Math.round(performance.now() - started),
  });
  const blocked = (error: string) =>
    Promise.resolve(
      done({ statusCode: null, responseBody: null, errorClass: "ssrf_blocked", error, retryAfterSeconds: null }),
    );
  const target = new URL(url);
  if (options.requireHttps && target.protocol !== "https:") return blocked("live endpoints must use https");
  const literal = options.allowPrivate ? null : blockedLiteral(target);
  if (literal) return blocked(`${literal} is a private or reserved address`);

  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, "durationMs" | "ok">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const client = target.protocol === "https:" ? https : http;
    const req = client.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        lookup: guardedLookup(options.resolver, options.allowPrivate),
        // A fresh connection per attempt: a pooled socket would skip the connect-time check.
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const complete = () => {
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          finish({
            statusCode: status,
            responseBody: bodyText(chunks),
            errorClass: ok ? null : "http_status",
            error: ok ? null : `HTTP ${status}${status >= 300 && status < 400 ? " (redirects are not followed)" : ""}`,
            retryAfterSeconds: retryAfter(res.headers["retry-after"]),
          });
          res.destroy();
        };
        res.on("data", (chunk: Buffer) => {
          if (kept < KEEP_BYTES) chunks.push(chunk);
          kept += chunk.length;
          if (kept >= KEEP_BYTES) complete(); // the rest of a large answer is of no use
        });
        // The status is known once headers arrived; a body cut short does not change the outcome.
        res.on("end", complete);
        res.on("error", complete);
        res.on("close", complete);
      },
    );
    const timer = setTimeout(() => {
      finish({
        statusCode: null,
        responseBody: null,
        errorClass: "timeout",
        error: `no complete answer within ${options.timeoutMs} ms`,
        retryAfterSeconds: null,
      });
      req.destroy();
    }, options.timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) =>
      finish({
        statusCode: null,
        responseBody: null,
        errorClass: classify(error),
        error: error.message,
        retryAfterSeconds: null,
      }),
    );
    req.end(body);
  });
}
