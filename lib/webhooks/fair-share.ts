// Per-partner slots of a process (deliveries in flight; `finca listen` sessions open).
// Fair sharing of a worker process's delivery capacity between partners: at most `perPartner` of
// one partner's deliveries are in flight at once. A delivery that finds its partner at the cap
// waits for a slot in memory, first come first served, but only for `waitMs`: a fast receiver's
// backlog then flows through the slots (a portfolio's 100,000 events), while one that stays at
// the cap (a slow receiver) is put back on the queue for a moment without an attempt
// (deliverMany) rather than holding up its batch, and with it other partners' deliveries, for long.
export interface PartnerSlots {
  /** A release function, or null when the partner (or, with a total, the process) has all its slots in use. */
  take(partnerId: string): (() => void) | null;
  /** Whether the process's total is in use (every partner would be refused). */
  full(): boolean;
  /** A release function once a slot is free, or null when none came free within the wait. */
  wait(partnerId: string): Promise<(() => void) | null>;
}

/** How long a delivery waits for its partner's slot before it is put back on the queue. */
export const SLOT_WAIT_MS = 1000;

/** `total`: slots of every partner together at most (listen sessions: each holds a connection and a poll). */
export function partnerSlots(
  perPartner: number,
  waitMs = SLOT_WAIT_MS,
  total = Number.POSITIVE_INFINITY,
): PartnerSlots {
  const inFlight = new Map<string, number>();
  const waiting = new Map<string, ((release: () => void) => void)[]>();
  let inUse = 0;
  const take = (partnerId: string) => {
    const n = inFlight.get(partnerId) ?? 0;
    if (n >= perPartner || inUse >= total) return null;
    inFlight.set(partnerId, n + 1);
    inUse++;
    return releaser(partnerId);
  };
  function releaser(partnerId: string) {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot goes straight to the first waiter, so a new arrival cannot overtake it.
      const queue = waiting.get(partnerId);
      const next = queue?.shift();
      if (queue && !queue.length) waiting.delete(partnerId);
      if (next) return next(releaser(partnerId));
      inUse--;
      const left = (inFlight.get(partnerId) ?? 1) - 1;
      if (left) inFlight.set(partnerId, left);
      else inFlight.delete(partnerId);
    };
  }
  return {
    take,
    full: () => inUse >= total,
    wait(partnerId) {
      const free = take(partnerId);
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
      });
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
