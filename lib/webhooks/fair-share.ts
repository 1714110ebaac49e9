// Per-partner slots of a process (deliveries in flight; `finca listen` sessions open).
// Fair sharing of a worker process's delivery capacity between partners: at most `perPartner` of
// one partner's deliveries are in flight at once. A delivery that finds its partner at the cap is
// put back on the queue for a moment without an attempt (deliverOnce), rather than waiting in
// memory, which would hold up the whole batch and with it every other partner's deliveries.
export interface PartnerSlots {
  /** A release function, or null when the partner already has all its slots in use. */
  take(partnerId: string): (() => void) | null;
}

export function partnerSlots(perPartner: number): PartnerSlots {
  const inFlight = new Map<string, number>();
  return {
    take(partnerId) {
      const n = inFlight.get(partnerId) ?? 0;
      if (n >= perPartner) return null;
      inFlight.set(partnerId, n + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (inFlight.get(partnerId) ?? 1) - 1;
        if (left) inFlight.set(partnerId, left);
        else inFlight.delete(partnerId);
      };
    },
  };
}

/** Seconds before a deferred delivery is tried again: soon, spread so they do not return together. */
export const deferSeconds = () => 1 + Math.random() * 2;
