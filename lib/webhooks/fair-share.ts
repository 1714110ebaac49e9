// Per-partner slots of a process (deliveries in flight; `finca listen` sessions open).
// Fair sharing of a worker process's delivery capacity between partners: at most `perPartner` of
// one partner's deliveries are in flight at once. A delivery that finds its partner at the cap
// waits for a slot in memory, first come first served, but only for `waitMs`: a fast receiver's
// backlog then flows through the slots (a portfolio's 100,000 events), while one that stays at
// the cap (a slow receiver) is put back on the queue for a moment without an attempt
// (deliverMany) rather than holding up its batch, and with it other partners' deliveries, for long.
import { aimdAfter, aimdStart, type AimdOutcome, type AimdSettings, type AimdState } from "./adaptive-concurrency";

export interface PartnerSlots {
  /** A release function, or null when the partner (or, with a total, the process) has all its slots in use. */
  take(partnerId: string): (() => void) | null;
  /** Whether the process's total is in use (every partner would be refused). */
  full(): boolean;
  /** A release function once a slot is free, or null when none came free within the wait. */
  wait(partnerId: string): Promise<(() => void) | null>;
}

/** How long a delivery waits for its partner's slot before it is put back on the queue. */
const SLOT_WAIT_MS = 1000;

/**
 * `perPartner`: a number, or each key's current cap (an endpoint's adaptive limit); `total`: slots
 * of every partner together at most (listen sessions: each holds a connection and a poll).
 */
export function partnerSlots(
  perPartner: number | ((key: string) => number),
  waitMs = SLOT_WAIT_MS,
  total = Number.POSITIVE_INFINITY,
): PartnerSlots {
  const capOf = typeof perPartner === "number" ? () => perPartner : perPartner;
  const inFlight = new Map<string, number>();
  const waiting = new Map<string, ((release: () => void) => void)[]>();
  let inUse = 0;
  const take = (partnerId: string) => {
    const n = inFlight.get(partnerId) ?? 0;
    if (n >= capOf(partnerId) || inUse >= total) return null;
    inFlight.set(partnerId, n + 1);
    inUse++;
    return releaser(partnerId);
  };
  /** Free slots go to the partner's waiters in arrival order (a cap that grew frees several). */
  function handOut(partnerId: string) {
    const queue = waiting.get(partnerId);
    while (queue?.length) {
      const release = take(partnerId);
      if (!release) break;
      queue.shift()!(release);
    }
    if (queue && !queue.length) waiting.delete(partnerId);
  }
  function releaser(partnerId: string) {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      inUse--;
      const left = (inFlight.get(partnerId) ?? 1) - 1;
      if (left) inFlight.set(partnerId, left);
      else inFlight.delete(partnerId);
      // Synchronously, so a new arrival cannot overtake a waiter.
      handOut(partnerId);
    };
  }
  return {
    take,
    full: () => inUse >= total,
    wait(partnerId) {
      const free = waiting.has(partnerId) ? null : take(partnerId);
      if (free || waitMs <= 0) return Promise.resolve(free);
      return new Promise((resolve) => {
        const queue = waiting.get(partnerId) ?? [];
        waiting.set(partnerId, queue);
        const handOver = (release: () => void) => {
          clearTimeout(timer);
          resolve(release);
        };
        const timer = setTimeout(() => {
          queue.splice(queue.indexOf(handOver), 1);
          if (!queue.length) waiting.delete(partnerId);
          resolve(null);
        }, waitMs);
        queue.push(handOver);
        handOut(partnerId);
      });
    },
  };
}

/** A delivery's slot; its release is told the attempt's outcome (none when no attempt was made). */
export type DeliverySlot = (outcome?: AimdOutcome) => void;

export interface DeliverySlots {
  /** A slot of the endpoint's adaptive share and of its partner's, or null when none came free within the waits. */
  wait(partnerId: string, endpointId: string): Promise<DeliverySlot | null>;
  /** The endpoint's current limit (metrics, tests). */
  limit(endpointId: string): number;
}

/**
 * A worker process's delivery slots: each endpoint's deliveries in flight follow its receiver (AIMD,
 * ./adaptive-concurrency), within the partner's fair share. The endpoint's slot is taken first, so
 * one waiting for its partner's holds up nothing of another endpoint's.
 */
export function deliverySlots(perPartner: number, settings: AimdSettings, waitMs = SLOT_WAIT_MS): DeliverySlots {
  const limits = new Map<string, AimdState>();
  const limit = (endpointId: string) => Math.floor((limits.get(endpointId) ?? aimdStart(settings)).limit);
  const endpoints = partnerSlots(limit, waitMs);
  const partners = partnerSlots(perPartner, waitMs);
  return {
    limit,
    async wait(partnerId, endpointId) {
      const endpoint = await endpoints.wait(endpointId);
      if (!endpoint) return null;
      const partner = await partners.wait(partnerId);
      if (!partner) {
        endpoint();
        return null;
      }
      let released = false;
      return (outcome) => {
        if (released) return;
        released = true;
        if (outcome)
          limits.set(endpointId, aimdAfter(settings, limits.get(endpointId) ?? aimdStart(settings), outcome));
        partner();
        // After the limit moved: a limit that grew hands out more than the one slot freed.
        endpoint();
      };
    },
  };
}

/** A process's `finca listen` sessions, shared between organisations with live access and test-only ones. */
export interface ListenSlots {
  /** A release function, or null with the reason none is free: the partner's cap, or the process's. */
  take(partnerId: string, liveAccess: boolean): (() => void) | { refused: "partner" | "process" };
}

/**
 * Listen sessions: `perPartner` per organisation and `total` together, of which organisations without
 * live access hold `testOnly` at most. Anyone may sign up for a free test organisation, so 20 of them
 * could otherwise fill the process and keep out the organisations Finca has a contract with: the
 * rest is kept for organisations with live access, which may also use what the others leave free.
 */
export function listenSlots(perPartner: number, total: number, testOnly: number): ListenSlots {
  const slots = partnerSlots(perPartner, 0, total);
  let testOnlyInUse = 0;
  return {
    take(partnerId, liveAccess) {
      if (!liveAccess && testOnlyInUse >= testOnly) return { refused: "process" };
      const release = slots.take(partnerId);
      if (!release) return { refused: slots.full() ? "process" : "partner" };
      if (liveAccess) return release;
      testOnlyInUse++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        testOnlyInUse--;
        release();
      };
    },
  };
}

/** Seconds before a deferred delivery is tried again: soon, spread so they do not return together. */
export const deferSeconds = () => 1 + Math.random() * 2;
