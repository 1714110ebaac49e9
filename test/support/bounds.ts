/**
 * What a test waits for (a job, a webhook, a pooled connection, a child process) and has not seen
 * after this long never comes: a bound on correctness, not on speed. Everything a test waits for
 * takes seconds even on a loaded machine; a tighter bound would make no passing test faster, only
 * a slow host fail one. Plain constant (no vitest): bench/ imports test/support too.
 */
export const NEVER_MS = 120_000;
