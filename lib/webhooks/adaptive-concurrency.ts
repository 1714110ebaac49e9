// Per-endpoint delivery concurrency that follows the receiver (AIMD, as Svix's dispatcher and TCP's
// congestion control do): it grows while answers come back fast and successful, and halves when an
// attempt times out, cannot connect, is answered 429/5xx or takes longer than the latency target.
// Pure: the caller brings the clock, so the rule is tested without timing.

export interface AimdSettings {
  /** The limit an endpoint starts with, and the least it is cut to. */
  min: number;
  /** The most an endpoint ever gets. */
  max: number;
  /** A success slower than this counts as the receiver struggling. */
  latencyTargetMs: number;
}

export interface AimdState {
  /** Deliveries allowed in flight (its floor is what counts; the fraction is growth under way). */
  limit: number;
  /** Below it the limit doubles per round trip (slow start); above, it grows by one per round trip. */
  threshold: number;
  /** When the limit was last cut (ms): attempts started before then were sent under the old limit. */
  cutAt: number;
}

/** One attempt's outcome as the limit sees it. */
export interface AimdOutcome {
  /** When the attempt started and ended (ms, the caller's clock). */
  startedAt: number;
  endedAt: number;
  /** The receiver's status, or null when none came (timeout, refused, reset). */
  statusCode: number | null;
}

export const aimdStart = (settings: AimdSettings): AimdState => ({
  limit: settings.min,
  threshold: settings.max,
  cutAt: Number.NEGATIVE_INFINITY,
});

/**
 * What the outcome says about the receiver: `fast` (2xx within the target), `struggling` (no answer,
 * 408, 429, 5xx, or slower than the target) or `neutral` (another answer: 3xx, 4xx say the request
 * or the endpoint is wrong, not that the receiver is overloaded).
 */
export function verdict(settings: AimdSettings, o: AimdOutcome): "fast" | "struggling" | "neutral" {
  const status = o.statusCode;
  if (status === null || status === 408 || status === 429 || status >= 500) return "struggling";
  if (o.endedAt - o.startedAt > settings.latencyTargetMs) return "struggling";
  return status >= 200 && status < 300 ? "fast" : "neutral";
}

/** The limit after an attempt ended. */
export function aimdAfter(settings: AimdSettings, state: AimdState, outcome: AimdOutcome): AimdState {
  switch (verdict(settings, outcome)) {
    case "neutral":
      return state;
    case "fast": {
      // Slow start adds one per success (doubling per round trip); past the threshold, 1/limit per
      // success (one per round trip of `limit` attempts).
      const step = state.limit < state.threshold ? 1 : 1 / state.limit;
      return { ...state, limit: Math.min(settings.max, state.limit + step) };
    }
    case "struggling": {
      // One cut per episode: the attempts already in flight when the limit was cut saw the old
      // limit's load, so their failures say nothing new.
      if (outcome.startedAt < state.cutAt) return state;
      const limit = Math.max(settings.min, Math.floor(state.limit / 2));
      return { limit, threshold: limit, cutAt: outcome.endedAt };
    }
  }
}
