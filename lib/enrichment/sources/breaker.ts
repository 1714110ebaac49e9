// A circuit breaker per live register (opossum), shared by every client that asks it (ICAEN serves
// both the certificate and the ITE lookups). When enough of the register's recent requests failed,
// it is not asked for a cool-down: lookups end at once as `register_unavailable`, a retryable error,
// so the durable retries carry the load later; then one trial request closes it again, or reopens it.
// A failure is an error outcome that may succeed later (a timeout, a 5xx, Catastro's "try later");
// `found`, `not_found` and permanent errors (a request the register will never answer) are answers.
// Per process: each instance learns on its own that a register is down.
import CircuitBreaker from "opossum";
import type { BreakerState } from "@/lib/observability/metrics";
import { toError } from "./http";
import type { Provider, RegisterGuard, SourceOutcome } from "./types";
import { codeOf } from "@/lib/domain";

export type { BreakerState };

export interface BreakerSettings {
  /** Share of failed requests in the window (%) that opens the breaker... */
  errorPercent: number;
  /** ...once at least this many were made in it. */
  minRequests: number;
  windowMs: number;
  /** Open this long, then one trial request. */
  cooldownMs: number;
}

/** What the composition root listens to (logs, metrics). Must not throw. */
export interface BreakerEvents {
  state?(provider: string, state: BreakerState): void;
  /** A request that was made: answered (true) or failed, and how long it took. */
  request?(provider: string, ok: boolean, durationMs: number): void;
  /** A lookup refused because the breaker was open or its trial under way. */
  rejected?(provider: string): void;
}

export interface RegisterBreakers extends RegisterGuard {
  /** The breakers made so far (a register is known once asked). */
  states(): Record<string, BreakerState>;
  /** The last failed request at `provider` in this process: its message and when. */
  lastFailure(provider: string): { message: string; at: Date } | null;
  /** Stops the breakers' timers. */
  shutdown(): void;
}

/** An error outcome travelling through opossum as a rejection, so that it counts as a failure. */
class FailedOutcome extends Error {
  constructor(readonly outcome: SourceOutcome<never>) {
    super(outcome.kind === "error" ? outcome.message : "failed");
  }
}

type Fetch = () => Promise<SourceOutcome<unknown>>;

export function createBreakers(settings: BreakerSettings, events: BreakerEvents = {}): RegisterBreakers {
  const breakers = new Map<string, CircuitBreaker<[Fetch], SourceOutcome<unknown>>>();
  const failures = new Map<string, { message: string; at: Date }>();
  const stateOf = (b: CircuitBreaker): BreakerState => (b.opened ? "open" : b.halfOpen ? "half_open" : "closed");

  function breakerFor(provider: string) {
    let breaker = breakers.get(provider);
    if (breaker) return breaker;
    breaker = new CircuitBreaker(
      async (fetch: Fetch) => {
        const outcome = await fetch();
        if (outcome.kind === "error" && !outcome.permanent) throw new FailedOutcome(outcome as SourceOutcome<never>);
        return outcome;
      },
      {
        // The clients' own request timeouts bound each call; a second timer here would only race them.
        timeout: false,
        errorThresholdPercentage: settings.errorPercent,
        volumeThreshold: settings.minRequests,
        rollingCountTimeout: settings.windowMs,
        rollingCountBuckets: 10,
        resetTimeout: settings.cooldownMs,
      },
    );
    breaker.on("open", () => events.state?.(provider, "open"));
    breaker.on("halfOpen", () => events.state?.(provider, "half_open"));
    breaker.on("close", () => events.state?.(provider, "closed"));
    breaker.on("success", (_: unknown, ms: number) => events.request?.(provider, true, ms));
    breaker.on("failure", (error: Error, ms: number) => {
      const outcome = error instanceof FailedOutcome ? error.outcome : toError(error);
      if (outcome.kind === "error")
        failures.set(provider, { message: `${outcome.code}: ${outcome.message}`.slice(0, 300), at: new Date() });
      events.request?.(provider, false, ms);
    });
    breaker.on("reject", () => events.rejected?.(provider));
    breakers.set(provider, breaker);
    return breaker;
  }

  const unavailable = (provider: Provider): SourceOutcome<never> => ({
    kind: "error",
    code: "register_unavailable",
    message: `${provider} failed repeatedly and is not asked for ${Math.round(settings.cooldownMs / 1000)} s`,
    provider,
  });

  return {
    async guard<T>(provider: Provider, fetch: () => Promise<SourceOutcome<T>>): Promise<SourceOutcome<T>> {
      const breaker = breakerFor(provider);
      try {
        return (await breaker.fire(fetch)) as SourceOutcome<T>;
      } catch (error) {
        // Failures name the register, so the attempt log and the admin console count them against it.
        if (error instanceof FailedOutcome) return { ...error.outcome, provider: error.outcome.provider ?? provider };
        if (codeOf(error) === "EOPENBREAKER") return unavailable(provider);
        return { ...toError(error), provider };
      }
    },
    refusal(provider) {
      if (!breakers.get(provider)?.opened) return null;
      events.rejected?.(provider);
      return unavailable(provider);
    },
    states: () => Object.fromEntries([...breakers].map(([provider, b]) => [provider, stateOf(b)])),
    lastFailure: (provider) => failures.get(provider) ?? null,
    shutdown: () => {
      for (const b of breakers.values()) b.shutdown();
    },
  };
}
