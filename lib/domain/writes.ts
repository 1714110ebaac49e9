/**
 * One write counted against its budget before it is made: throws `rate_limited` (and nothing is
 * written) when the budget is spent. A write command takes one, so the API and the portal share
 * the command: the API's is the count its key statement made already (one round trip); the
 * portal's counts on the partner's or the account's bucket. lib/rate-limit makes both.
 */
export type WriteBudget = () => Promise<void>;
