import { describe, expect, it } from "vitest";
import { aimdAfter, aimdStart, verdict, type AimdOutcome, type AimdState } from "./adaptive-concurrency";

// Constructed settings: a range and a target chosen to make the steps easy to follow.
const settings = { min: 1, max: 16, latencyTargetMs: 1000 };
const ok = (startedAt = 0, ms = 10): AimdOutcome => ({ startedAt, endedAt: startedAt + ms, statusCode: 204 });
const status = (statusCode: number | null, startedAt = 0): AimdOutcome => ({
  startedAt,
  endedAt: startedAt + 10,
  statusCode,
});
const fold = (state: AimdState, ...outcomes: AimdOutcome[]) =>
  outcomes.reduce((s, o) => aimdAfter(settings, s, o), state);

describe("adaptive concurrency (AIMD)", () => {
  it("starts at the minimum and doubles per round trip while fast answers come (slow start)", () => {
    const start = aimdStart(settings);
    expect(start.limit).toBe(1);
    expect(fold(start, ok()).limit).toBe(2);
    expect(fold(start, ok(), ok(), ok()).limit).toBe(4);
  });

  it("never grows past the maximum", () => {
    const state = fold(aimdStart(settings), ...Array.from({ length: 100 }, () => ok()));
    expect(state.limit).toBe(16);
  });

  it("halves on a timeout, a refused connection, a 429 or a 5xx, and on a success slower than the target", () => {
    const eight = { limit: 8, threshold: 16, cutAt: Number.NEGATIVE_INFINITY };
    for (const outcome of [status(null), status(429), status(503), status(408), ok(0, 1001)])
      expect(fold(eight, outcome)).toEqual({ limit: 4, threshold: 4, cutAt: outcome.endedAt });
  });

  it("cuts once per episode: attempts started before the cut do not cut again", () => {
    const eight = { limit: 8, threshold: 16, cutAt: Number.NEGATIVE_INFINITY };
    // Five attempts in flight at t=0 all fail; the first cut is at t=10.
    const cut = fold(eight, ...Array.from({ length: 5 }, () => status(500, 0)));
    expect(cut.limit).toBe(4);
    // An attempt started after the cut that fails too cuts again.
    expect(fold(cut, status(500, 20)).limit).toBe(2);
  });

  it("after a cut, grows by one per round trip of `limit` successes (additive increase)", () => {
    const cut = fold({ limit: 8, threshold: 16, cutAt: Number.NEGATIVE_INFINITY }, status(500));
    expect(cut.limit).toBe(4);
    const round = fold(cut, ok(20), ok(20), ok(20), ok(20));
    expect(Math.floor(round.limit)).toBe(4);
    expect(round.limit).toBeGreaterThan(4.9);
    expect(Math.floor(fold(round, ok(30)).limit)).toBe(5);
  });

  it("never cuts below the minimum", () => {
    expect(fold(aimdStart(settings), status(500), status(500, 100)).limit).toBe(1);
  });

  it("leaves the limit alone on answers that are the request's fault, not the receiver's load", () => {
    const four = { limit: 4, threshold: 16, cutAt: Number.NEGATIVE_INFINITY };
    for (const code of [301, 400, 401, 404, 410]) {
      expect(verdict(settings, status(code))).toBe("neutral");
      expect(fold(four, status(code))).toBe(four);
    }
  });
});
