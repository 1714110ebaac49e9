// Registering a property from the portal: the API's create path in the API's order (rate limit,
// then the reference check, then registerProperty), with the API's problem codes and messages, so a
// partner sees in the portal exactly what their integration would get.
import type { App } from "@/lib/app";
import { checkReference } from "@/lib/cadastral-reference";
import { registerProperty, type Registration } from "@/lib/properties/register";
import { rateLimitBucket } from "@/lib/rate-limit";
import type { Scope } from "@/lib/properties";

// The same wording as the API's 400 detail (lib/partner-api/properties.ts).
const REASONS = {
  length: "must be 14 (parcel) or 20 (unit) characters after removing spaces and hyphens",
  charset: "may contain only digits and the letters A-Z and Ñ",
  check_letters: "has wrong check letters (characters 19-20)",
} as const;

export type PortalRegistration =
  | ({ ok: true } & Registration)
  | { ok: false; code: "rate_limited" | "invalid_cadastral_reference"; detail: string };

export async function registerFromPortal(app: App, scope: Scope, input: string): Promise<PortalRegistration> {
  const startedAt = Date.now();
  // Counted like an API write, whatever the outcome: the partner's integration shares this budget.
  const decision = await app.rateLimiter.hit(rateLimitBucket(scope.partnerId, scope.mode));
  if (!decision.allowed) {
    const retryAfter = Math.max(1, decision.resetSeconds);
    return { ok: false, code: "rate_limited", detail: `At most ${decision.limit} write requests per ${decision.windowSeconds} s; retry after ${retryAfter} s.` };
  }
  const check = checkReference(input);
  if (!check.ok) {
    return { ok: false, code: "invalid_cadastral_reference", detail: `The cadastral reference "${check.reference}" ${REASONS[check.reason]}.` };
  }
  return { ok: true, ...(await registerProperty(app, scope, check.reference, startedAt)) };
}
