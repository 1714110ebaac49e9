// Registering a property from the portal: the API's create path in the API's order (rate limit,
// then the reference check, then registration), with the API's codes and messages, so a partner
// sees in the portal exactly what their integration would get.
import { DomainError, type Scope } from "@/lib/domain";
import { registerReference, type PropertiesDeps, type Registration } from "@/lib/properties";
import { accountBucket, rateLimitBucket, rateLimited, type RateLimiter } from "@/lib/rate-limit";

export type PortalRegistration =
  | ({ ok: true } & Registration)
  | { ok: false; code: "rate_limited" | "invalid_cadastral_reference"; detail: string };

/** A portal write counted against the partner's write limit, as the same change through the API would be. */
export async function countPortalWrite(deps: { rateLimiter: RateLimiter }, scope: Scope): Promise<void> {
  const decision = await deps.rateLimiter.hit(rateLimitBucket(scope));
  if (!decision.allowed) throw rateLimited(decision);
}

/** A key or webhook endpoint change made in the portal, counted against the account's own budget. */
export async function countAccountWrite(deps: { rateLimiter: RateLimiter }, scope: Scope): Promise<void> {
  const decision = await deps.rateLimiter.hit(accountBucket(scope));
  if (!decision.allowed) throw rateLimited(decision);
}

/**
 * A key or webhook endpoint change made in the portal (a button: revoke, rotate, test event,
 * replay...), counted against the account's budget first: what the change answered, or the
 * refusal's detail (nothing changed) when the budget is spent.
 */
export async function accountChange<T>(
  deps: { rateLimiter: RateLimiter },
  scope: Scope,
  change: () => Promise<T>,
): Promise<{ done: T } | { refused: string }> {
  try {
    await countAccountWrite(deps, scope);
  } catch (error) {
    if (error instanceof DomainError && error.code === "rate_limited") return { refused: error.detail };
    throw error;
  }
  return { done: await change() };
}

export async function registerFromPortal(
  deps: PropertiesDeps & { rateLimiter: RateLimiter },
  scope: Scope,
  input: string,
): Promise<PortalRegistration> {
  const startedAt = Date.now();
  try {
    // Counted like an API write, whatever the outcome: the partner's integration shares this budget.
    await countPortalWrite(deps, scope);
    return { ok: true, ...(await registerReference(deps, scope, input, startedAt)) };
  } catch (error) {
    if (error instanceof DomainError && (error.code === "rate_limited" || error.code === "invalid_cadastral_reference"))
      return { ok: false, code: error.code, detail: error.detail };
    throw error;
  }
}
