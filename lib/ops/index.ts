// The operators' endpoints, outside the partner API and without its key: liveness (`/api/health`),
// readiness (`/api/ready`) and the Prometheus scrape (`/metrics`). Plain `(Request) => Response`
// functions over narrow dependencies, hosted by Next.js routes and the lean server alike.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Registry } from "prom-client";
import { DomainError } from "@/lib/domain";
import { problemResponse } from "@/lib/partner-api/errors";
import { requestIdOf } from "@/lib/partner-api/request";

export const OPS_PATHS = { health: "/api/health", ready: "/api/ready", metrics: "/metrics" } as const;

const NO_STORE = { "Cache-Control": "no-store" };

/** Liveness: the process answers. Touches nothing else, so a database outage never restarts it. */
export function healthResponse(): Response {
  return Response.json({ status: "ok" }, { headers: NO_STORE });
}

/**
 * One readiness check: resolves when it holds. `failure` is what the 503 says about it — a fixed
 * sentence, never the error's own message (which may name hosts, users or SQL).
 */
export interface ReadinessCheck {
  name: string;
  failure: string;
  check(): Promise<boolean>;
}

/**
 * Readiness: every check, side by side, each bounded by `timeoutMs` (a database that hangs is a
 * failure, not a hung probe). 200 with each check's state, or 503 problem+json naming the failing ones.
 */
export async function readinessResponse(
  req: Request,
  checks: readonly ReadinessCheck[],
  timeoutMs: number,
): Promise<Response> {
  const results = await Promise.all(checks.map((c) => holds(c, timeoutMs)));
  const failing = checks.filter((_, i) => !results[i]);
  const states = Object.fromEntries(checks.map((c, i) => [c.name, results[i] ? "ok" : "failing"]));
  if (!failing.length) return Response.json({ status: "ready", checks: states }, { headers: NO_STORE });
  const requestId = requestIdOf(req);
  const detail = `Not ready: ${failing.map((c) => `${c.name} (${c.failure})`).join("; ")}.`;
  return problemResponse(new DomainError("service_unavailable", detail), requestId, {
    ...NO_STORE,
    "X-Request-Id": requestId,
  });
}

async function holds(c: ReadinessCheck, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)));
  try {
    return await Promise.race([c.check().catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The registry in Prometheus's text format; with a token set, only for `Authorization: Bearer <token>`. */
export async function metricsResponse(req: Request, registry: Registry, token: string | undefined): Promise<Response> {
  const bearer = /^Bearer\s+(.*)$/i.exec(req.headers.get("authorization") ?? "")?.[1] ?? null;
  if (token && (bearer === null || !sameSecret(bearer, token))) {
    return new Response("A metrics token is required: Authorization: Bearer <METRICS_TOKEN>.\n", {
      status: 401,
      headers: {
        ...NO_STORE,
        "Content-Type": "text/plain; charset=utf-8",
        "WWW-Authenticate": 'Bearer realm="metrics"',
      },
    });
  }
  return new Response(await registry.metrics(), { headers: { ...NO_STORE, "Content-Type": registry.contentType } });
}

/** Compared as digests of equal length: neither the token's contents nor its length shows in the time taken. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
