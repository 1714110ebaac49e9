import { DomainError } from "./errors";

/** How long an Idempotency-Key answers with what its first request made (Stripe's 24 h). */
export const IDEMPOTENCY_HOURS = 24;

/** A key used within its life for another request: refused, so a client's bug creates nothing. */
export const idempotencyConflict = (what: string) =>
  new DomainError(
    "validation_error",
    `This Idempotency-Key was used within ${IDEMPOTENCY_HOURS} h for a different request.`,
    [{ header: "Idempotency-Key", detail: `already used with another body: send a new key for a new ${what}` }],
  );
