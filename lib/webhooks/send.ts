// One webhook POST over a kept-alive connection: guarded DNS, no redirects, a hard time limit, at most
// 1 KiB of the answer kept.
import { Agent, request } from "undici";
import { blockedLiteral, guardedLookup, SsrfBlockedError, systemResolver, type Resolver } from "@/lib/http/ssrf";

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

/**
 * Keep-alive connection pools, one set per address check (a resolver and whether private addresses
 * are allowed): every connection is made through the guarded lookup, so a reused socket goes to an
 * address that was checked when it was dialled; pools of different checks never share a socket.
 */
const dispatchers = new WeakMap<Resolver, Map<boolean, Agent>>();

function dispatcher(resolver: Resolver, allowPrivate: boolean): Agent {
  const byCheck = dispatchers.get(resolver) ?? new Map<boolean, Agent>();
  dispatchers.set(resolver, byCheck);
  let agent = byCheck.get(allowPrivate);
  if (!agent) {
    // Redirects are not followed (undici's request follows none unless asked).
    agent = new Agent({ connect: { lookup: guardedLookup(resolver, allowPrivate) } });
    byCheck.set(allowPrivate, agent);
  }
  return agent;
}

export async function sendWebhook(
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
  const failed = (errorClass: ErrorClass, error: string) =>
    done({ statusCode: null, responseBody: null, errorClass, error, retryAfterSeconds: null });
  const target = new URL(url);
  if (options.requireHttps && target.protocol !== "https:")
    return failed("ssrf_blocked", "live endpoints must use https");
  const literal = options.allowPrivate ? null : blockedLiteral(target);
  if (literal) return failed("ssrf_blocked", `${literal} is a private or reserved address`);

  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  try {
    const res = await request(target, {
      method: "POST",
      headers,
      body,
      signal: abort.signal,
      dispatcher: dispatcher(options.resolver ?? systemResolver, options.allowPrivate),
    });
    const chunks: Buffer[] = [];
    let kept = 0;
    // The status is known once headers arrived; a body cut short does not change the outcome.
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        chunks.push(chunk);
        kept += chunk.length;
        // The rest of a large answer is of no use: the connection is closed rather than read to its end.
        if (kept >= KEEP_BYTES) {
          res.body.destroy();
          break;
        }
      }
    } catch {}
    const status = res.statusCode;
    const ok = status >= 200 && status < 300;
    const retry = res.headers["retry-after"];
    return done({
      statusCode: status,
      responseBody: bodyText(chunks),
      errorClass: ok ? null : "http_status",
      error: ok ? null : `HTTP ${status}${status >= 300 && status < 400 ? " (redirects are not followed)" : ""}`,
      retryAfterSeconds: retryAfter(Array.isArray(retry) ? retry[0] : retry),
    });
  } catch (thrown) {
    if (abort.signal.aborted) return failed("timeout", `no complete answer within ${options.timeoutMs} ms`);
    // undici rejects with the socket's own error (the lookup's refusal included).
    const error = thrown as NodeJS.ErrnoException;
    return failed(classify(error), error.message);
  } finally {
    clearTimeout(timer);
  }
}
