// When the engine stops and when a property is tried again: the inline deadline's write reserve,
// a durable run's own limit, and the retry schedule per mode with jitter. Pure functions of the
// configuration.
import type { Config } from "@/lib/config";
import type { Mode } from "@/lib/domain";

export type ScheduleConfig = Pick<
  Config,
  | "ENRICHMENT_DEADLINE_MS"
  | "ENRICHMENT_RETRY_SCHEDULE"
  | "ENRICHMENT_RETRY_SCHEDULE_TEST"
  | "ENRICHMENT_RETRY_JITTER"
  | "JOB_EXPIRE_SECONDS"
>;

/** Retry delays (s) for a property's mode: test mode is compressed so sandbox scenarios end in seconds. */
export function retrySchedule(config: ScheduleConfig, mode: Mode): number[] {
  return mode === "test" ? config.ENRICHMENT_RETRY_SCHEDULE_TEST : config.ENRICHMENT_RETRY_SCHEDULE;
}

/** Attempts a source gets in all: the inline one and one per scheduled retry. */
export const maxAttempts = (config: ScheduleConfig, mode: Mode) => retrySchedule(config, mode).length + 1;

/** `base` seconds ± jitter, so retries of properties created together do not hit a register together. */
export function withJitter(base: number, jitter: number, random = Math.random): number {
  return Math.max(0, base * (1 + jitter * (2 * random() - 1)));
}

/** Delay of the first durable run: after the inline deadline, plus the first retry delay. */
export function firstRunDelaySeconds(config: ScheduleConfig, mode: Mode): number {
  return (
    config.ENRICHMENT_DEADLINE_MS / 1000 +
    withJitter(retrySchedule(config, mode)[0] ?? 1, config.ENRICHMENT_RETRY_JITTER)
  );
}

/** Delay before durable run `run + 1` (runs are numbered from 1). */
export function nextRunDelaySeconds(config: ScheduleConfig, mode: Mode, run: number): number {
  return withJitter(retrySchedule(config, mode)[run]!, config.ENRICHMENT_RETRY_JITTER);
}

/** Whether run `run` is the last one the schedule allows. */
export const isLastRun = (config: ScheduleConfig, mode: Mode, run: number) => run >= retrySchedule(config, mode).length;

/**
 * The enrichment stops this long before the response deadline, leaving time to write the property
 * (one transaction) so the response itself meets the deadline under load.
 */
export const writeReserveMs = (deadlineMs: number) => Math.min(150, Math.floor(deadlineMs / 10));

/** When an inline enrichment of a request that arrived at `startedAt` must stop. */
export const inlineDeadline = (config: ScheduleConfig, startedAt: number) =>
  startedAt + config.ENRICHMENT_DEADLINE_MS - writeReserveMs(config.ENRICHMENT_DEADLINE_MS);

/** A run's own time limit; well under the queue's expiry so a live worker is never presumed dead. */
export const RUN_DEADLINE_MS = 30_000;

export const runDeadline = (config: ScheduleConfig, now = Date.now()) =>
  now + Math.min(RUN_DEADLINE_MS, (config.JOB_EXPIRE_SECONDS * 1000) / 2);
