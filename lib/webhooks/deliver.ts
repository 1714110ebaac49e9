// Delivery attempts: sign, send, log the attempt, then succeed, schedule the next try per the
// contract's schedule, or give up — the log, the state and the next job in one transaction (one
// statement for all of a batch's successes).
import { and, eq, inArray, sql } from "drizzle-orm";
import { bare, rowsOf, schema, type Db, type DbOrTx } from "@/lib/db";
import type { Config } from "@/lib/config";
import { enqueue, QUEUES, type Queue } from "@/lib/queue";
import { isUuid, type Mode } from "@/lib/domain";
import { signingSecrets } from "./endpoints";
import { wirePayload, type DeliverJob } from "./events";
import { webhookHeaders } from "./sign";
import { sendWebhook, type SendResult } from "./send";
import type { Resolver } from "@/lib/http/ssrf";
import { deferSeconds, type DeliverySlots } from "./fair-share";
import { tellEndpointDisabled, tellEndpointFailing } from "@/lib/email";

const { webhookDeliveries, webhookEndpoints, webhookAttempts, events } = schema;
const [d, a, e, p] = [webhookDeliveries, webhookAttempts, webhookEndpoints, schema.partners];

export interface DeliveryDeps {
  db: Db;
  queue: Queue;
  config: Pick<
    Config,
    | "WEBHOOK_TIMEOUT_MS"
    | "WEBHOOK_RETRY_SCHEDULE"
    | "WEBHOOK_RETRY_SCHEDULE_TEST"
    | "FINCA_WEBHOOKS_ALLOW_PRIVATE"
    | "WEBHOOK_FAILING_NOTICE_HOURS"
    | "WEBHOOK_DISABLE_AFTER_DAYS"
    | "PUBLIC_BASE_URL"
  >;
  /** Tests inject a resolver; production uses the system's. */
  resolver?: Resolver;
  now?: () => Date;
  /** The process's delivery slots (per endpoint, adaptive, within the partner's share); without it, no cap (tests of one delivery). */
  slots?: DeliverySlots;
  /** Told of each attempt made, once its outcome is written (logs, metrics); must not throw. */
  onAttempt?: (attempt: DeliveryAttemptRecord) => void;
}

/** One attempt as logs and metrics see it: ids and results, never the URL, the secret or the bodies. */
export interface DeliveryAttemptRecord {
  deliveryId: string;
  /** The `webhook-id` the receiver saw (msg_…): what a partner quotes. */
  messageId: string;
  endpointId: string;
  partnerId: string;
  mode: Mode;
  eventType: string;
  /** 1 for the first attempt of this delivery. */
  attempt: number;
  trigger: DeliverJob["trigger"];
  outcome: Exclude<DeliveryOutcome, "skipped" | "deferred">;
  statusCode: number | null;
  errorClass: SendResult["errorClass"];
  durationMs: number;
  /** From the event's creation to this attempt's end, ms: the receipt latency of a success. */
  sinceEventMs: number;
}

/** Why an endpoint failing for WEBHOOK_DISABLE_AFTER_DAYS was disabled (`failing_5_days` by default). */
const failingTooLongReason = (days: number) => `failing_${days}_days`;

export function deliverySchedule(config: DeliveryDeps["config"], mode: Mode): number[] {
  return mode === "test" ? config.WEBHOOK_RETRY_SCHEDULE_TEST : config.WEBHOOK_RETRY_SCHEDULE;
}

/** Seconds until the next try after a failed attempt at schedule position `step`, or null when retries are exhausted. */
export function nextDelaySeconds(
  schedule: number[],
  step: number,
  result: Pick<SendResult, "statusCode" | "retryAfterSeconds">,
): number | null {
  const scheduled = schedule[step];
  if (scheduled === undefined) return null;
  // A receiver's Retry-After (429/503) is honoured up to the next scheduled delay, never beyond it.
  if ((result.statusCode === 429 || result.statusCode === 503) && result.retryAfterSeconds !== null) {
    return Math.min(result.retryAfterSeconds, scheduled);
  }
  return scheduled;
}

export type DeliveryOutcome = "succeeded" | "retry" | "failed" | "skipped" | "deferred";

const now = (deps: DeliveryDeps) => deps.now?.() ?? new Date();

type Row = {
  delivery: typeof webhookDeliveries.$inferSelect;
  endpoint: typeof webhookEndpoints.$inferSelect;
  event: typeof events.$inferSelect;
  /** The partner's live access: a live endpoint is called only while it is approved. */
  liveAccess: typeof schema.partners.$inferSelect.liveAccess;
};

/** The deliveries of these jobs with their endpoints and events, in one read. */
async function readDeliveries(db: Db, jobs: readonly DeliverJob[]): Promise<Map<string, Row>> {
  // A job naming no delivery (a malformed id) finds nothing, and is skipped.
  const ids = [...new Set(jobs.map((j) => j.deliveryId).filter(isUuid))];
  if (!ids.length) return new Map();
  const rows = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: events, liveAccess: p.liveAccess })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .innerJoin(p, eq(p.id, webhookEndpoints.partnerId))
    .where(inArray(webhookDeliveries.id, ids));
  return new Map(rows.map((row) => [row.delivery.id, row]));
}

/** A successful attempt, to be written with the batch's other successes. */
interface Success {
  deliveryId: string;
  /** The attempt count the job expected (the claim's guard). */
  expected: number;
  attempt: number;
  trigger: DeliverJob["trigger"];
  startedAt: Date;
  at: Date;
  /** The webhook-signature header sent. */
  signature: string;
  result: SendResult;
  report(outcome: DeliveryOutcome): DeliveryOutcome;
}

/**
 * Runs the attempts a batch of jobs stands for: one read for all, the sends side by side, every
 * success written in one statement (the common case costs the batch two round trips, not two per
 * delivery); a failure is written on its own (rare, and it takes the endpoint's row lock).
 * Idempotent per job: a job whose attempt count no longer matches the delivery (already logged by
 * an earlier run, or superseded by a replay) sends nothing. Manual replays and test events reach a
 * disabled endpoint (a person asked for them); scheduled attempts do not, and no endpoint that was
 * deleted is ever called.
 */
export async function deliverMany(deps: DeliveryDeps, jobs: readonly DeliverJob[]): Promise<DeliveryOutcome[]> {
  const rows = await readDeliveries(deps.db, jobs);
  const seen = new Set<string>();
  // The same delivery twice in a batch (a job handed out twice): the first sends, the second is skipped.
  // Settled, not all: one job that throws must not end the batch while the others' sends are in flight.
  const settled = await Promise.allSettled(
    jobs.map((job) => {
      const row = rows.get(job.deliveryId);
      if (!row || seen.has(job.deliveryId)) return "skipped" as const;
      seen.add(job.deliveryId);
      return attemptOne(deps, job, row);
    }),
  );
  const attempts = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const successes = attempts.filter((a): a is Success => typeof a === "object");
  const claimed = await writeSuccesses(deps.db, successes);
  // Thrown only once every success is written: the batch's retry finds them logged and sends them no more.
  const failures = settled.flatMap((s) => (s.status === "rejected" ? [s.reason as unknown] : []));
  if (failures.length === 1) throw failures[0];
  if (failures.length) throw new AggregateError(failures, `${failures.length} of a batch's deliveries failed to run`);
  return attempts.map((a) =>
    typeof a === "object" ? a.report(claimed.has(a.deliveryId) ? "succeeded" : "skipped") : a,
  );
}

/** A job's attempt, in three typed stages (as Svix's dispatcher): prepare → send → record. */
async function attemptOne(deps: DeliveryDeps, job: DeliverJob, row: Row): Promise<DeliveryOutcome | Success> {
  const ready = await prepare(deps, job, row);
  if (ready === "skipped") return ready;
  const sent = await send(deps, ready);
  if (sent === "deferred" || sent === "skipped") return sent;
  return record(deps, sent);
}

/** An attempt that may be made: its delivery, endpoint and event, and the body to send. */
interface Ready extends Row {
  job: DeliverJob;
  body: string;
  /** This attempt's number (1 for the first), and its position in the retry schedule. */
  attempt: number;
  step: number;
}

/** An attempt made: when, the signature sent and what the receiver answered. */
interface Sent extends Ready {
  startedAt: Date;
  signature: string;
  result: SendResult;
}

/** The delivery while it still awaits this job's attempt (the guard of every write an attempt makes). */
const awaiting = (deliveryId: string, attempts: number) =>
  and(
    eq(webhookDeliveries.id, deliveryId),
    eq(webhookDeliveries.attempts, attempts),
    eq(webhookDeliveries.status, "pending"),
  );

type EndpointState = Pick<Row["endpoint"], "deletedAt" | "enabled" | "disabledReason">;

/** Why `job` may not call `endpoint`: deleted, or disabled for a scheduled attempt; null when it may. */
function refusal(endpoint: EndpointState, job: DeliverJob): string | null {
  if (endpoint.deletedAt) return "endpoint deleted";
  if (!endpoint.enabled && job.trigger === "scheduled")
    return `endpoint disabled (${endpoint.disabledReason ?? "no reason given"})`;
  return null;
}

/** The delivery failed without a call, for `why`; the job's attempt is skipped. */
async function failUncalled(deps: DeliveryDeps, deliveryId: string, job: DeliverJob, why: string) {
  await deps.db
    .update(webhookDeliveries)
    .set({ status: "failed", lastError: why, nextAttemptAt: null, updatedAt: now(deps) })
    .where(awaiting(deliveryId, job.attempt));
  return "skipped" as const;
}

/** A wait for a slot longer than this may have seen the endpoint deleted or disabled: it is read again. */
const RECHECK_AFTER_MS = 20;

/**
 * Stage 1: whether the job's attempt is still due (not already made, nor superseded by a replay),
 * and to an endpoint that may be called; a deleted one, or a disabled one for a scheduled attempt,
 * fails the delivery. The body is made here: a payload off its schema fails the job before a slot is taken.
 */
async function prepare(deps: DeliveryDeps, job: DeliverJob, row: Row): Promise<Ready | "skipped"> {
  const { delivery, endpoint } = row;
  if (delivery.attempts !== job.attempt || delivery.status !== "pending") return "skipped";
  // Live data stops with live access: an operator who revoked it expects no more of it sent (a person's
  // replay is refused earlier, by the replay's own check).
  const refused =
    endpoint.mode === "live" && row.liveAccess !== "approved" ? "live access revoked" : refusal(endpoint, job);
  if (refused) return failUncalled(deps, delivery.id, job, refused);
  let body: string;
  try {
    body = wirePayload(row.event);
  } catch (error) {
    // Our bug, not the receiver's doing: the delivery fails where operators see it (and may replay it
    // once mended), not retried for ever; the job fails too, so the error is logged.
    const why = `its payload could not be made: ${error instanceof Error ? error.message : String(error)}`;
    await deps.db
      .update(webhookDeliveries)
      .set({ status: "failed", lastError: why.slice(0, 500), nextAttemptAt: null, updatedAt: now(deps) })
      .where(awaiting(delivery.id, job.attempt));
    throw error;
  }
  return { ...row, job, body, attempt: delivery.attempts + 1, step: job.step ?? job.attempt };
}

/**
 * Stage 2: signed and sent within the endpoint's adaptive share of delivery slots (which its outcome
 * moves) and its partner's; one that found them in use all the wait gets the same job again in a
 * moment, no attempt counted.
 */
async function send(deps: DeliveryDeps, ready: Ready): Promise<Sent | "deferred" | "skipped"> {
  const { endpoint, delivery, body } = ready;
  const waitedFrom = performance.now();
  const slot = deps.slots ? await deps.slots.wait(endpoint.partnerId, endpoint.id) : () => {};
  if (!slot) {
    await enqueue(deps.queue, deps.db, QUEUES.deliverWebhook, ready.job, { delaySeconds: deferSeconds() });
    return "deferred";
  }
  // A wait of more than a moment (up to a second) may have seen the endpoint deleted or disabled.
  if (performance.now() - waitedFrom > RECHECK_AFTER_MS) {
    const [current] = await deps.db
      .select({ deletedAt: e.deletedAt, enabled: e.enabled, disabledReason: e.disabledReason })
      .from(e)
      .where(eq(e.id, endpoint.id));
    const refused = current && refusal(current, ready.job);
    if (refused) {
      slot(undefined);
      return failUncalled(deps, delivery.id, ready.job, refused);
    }
  }
  const startedAt = now(deps);
  const headers = webhookHeaders(signingSecrets(endpoint, startedAt), delivery.messageId, startedAt, body);
  const sentAt = performance.now();
  const result = await sendWebhook(endpoint.url, headers, body, {
    timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: deps.config.FINCA_WEBHOOKS_ALLOW_PRIVATE,
    requireHttps: endpoint.mode === "live",
    resolver: deps.resolver,
  });
  // A refused address says nothing about the receiver's load: no outcome for the limit.
  slot(
    result.errorClass === "ssrf_blocked"
      ? undefined
      : { startedAt: sentAt, endedAt: performance.now(), statusCode: result.statusCode },
  );
  return { ...ready, startedAt, signature: headers["webhook-signature"], result };
}

/**
 * Stage 3: a success, to be written with the batch's other successes (./writeSuccesses); a failure
 * written now, with its retry or its end. Either is told to `onAttempt` once its outcome is known.
 */
async function record(deps: DeliveryDeps, sent: Sent): Promise<Success | DeliveryOutcome> {
  const report = reporter(deps, sent);
  if (!sent.result.ok) return report(await deps.db.transaction((tx) => recordFailure(deps, tx, sent)));
  return {
    deliveryId: sent.delivery.id,
    expected: sent.job.attempt,
    attempt: sent.attempt,
    trigger: sent.job.trigger,
    startedAt: sent.startedAt,
    at: now(deps),
    signature: sent.signature,
    result: sent.result,
    report,
  };
}

/** Tells `onAttempt` of an attempt whose outcome was written (not of one skipped or deferred). */
const reporter =
  (deps: DeliveryDeps, { delivery, endpoint, event, job, attempt, result }: Sent) =>
  (outcome: DeliveryOutcome): DeliveryOutcome => {
    if (outcome !== "skipped" && outcome !== "deferred")
      deps.onAttempt?.({
        deliveryId: delivery.id,
        messageId: delivery.messageId,
        endpointId: endpoint.id,
        partnerId: endpoint.partnerId,
        mode: endpoint.mode,
        eventType: event.type,
        attempt,
        trigger: job.trigger,
        outcome,
        statusCode: result.statusCode,
        errorClass: result.errorClass,
        durationMs: result.durationMs,
        sinceEventMs: now(deps).getTime() - event.createdAt.getTime(),
      });
    return outcome;
  };

/**
 * A failed attempt's log, the delivery's next try or its end, and the endpoint's failure streak
 * (its organisation emailed once it has failed for WEBHOOK_FAILING_NOTICE_HOURS; disabled, and
 * emailed again, after a 410 or WEBHOOK_DISABLE_AFTER_DAYS failing). The row lock makes this the only run that logs this
 * attempt (a job handed out twice sends twice at worst, which at-least-once allows, but is counted
 * and scheduled once).
 */
async function recordFailure(deps: DeliveryDeps, tx: DbOrTx, sent: Sent): Promise<DeliveryOutcome> {
  const { delivery, endpoint, job, attempt, step, startedAt, result } = sent;
  const [claimed] = await tx
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(awaiting(delivery.id, job.attempt))
    .for("update");
  if (!claimed) return "skipped";

  // The failure streak is kept in SQL, not from the snapshot read before sending: deliveries to
  // the same endpoint run concurrently, and a success in between must not be overwritten.
  const [state] = await tx
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${startedAt.toISOString()}::timestamptz)` })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning({
      enabled: webhookEndpoints.enabled,
      failingSince: webhookEndpoints.failingSince,
      failingNotifiedAt: webhookEndpoints.failingNotifiedAt,
    });
  if (!state) throw new Error(`endpoint ${endpoint.id} of delivery ${delivery.id} is gone while its row was read`);
  const gone = result.statusCode === 410;
  // A blocked address stays blocked: retrying it for days only knocks on the operator's network.
  const blocked = result.errorClass === "ssrf_blocked";
  const failingFor = state.failingSince === null ? 0 : now(deps).getTime() - state.failingSince.getTime();
  const { WEBHOOK_DISABLE_AFTER_DAYS: days, WEBHOOK_FAILING_NOTICE_HOURS: noticeHours } = deps.config;
  const failingTooLong = failingFor >= days * 24 * 3600_000;
  const disableReason = !state.enabled ? null : gone ? "gone_410" : failingTooLong ? failingTooLongReason(days) : null;
  const notice = {
    ...endpoint,
    failingSince: state.failingSince ?? startedAt,
    lastError: result.error?.slice(0, 200) ?? (result.statusCode ? `HTTP ${result.statusCode}` : null),
  };
  const base = deps.config.PUBLIC_BASE_URL;
  if (disableReason) {
    await tx
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: disableReason })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await tellEndpointDisabled(tx, notice, { base, reason: disableReason });
  } else if (
    state.enabled &&
    failingFor >= noticeHours * 3600_000 &&
    // Once per run of failures: the row lock taken above makes concurrent failures take turns here.
    (state.failingNotifiedAt === null || state.failingNotifiedAt < state.failingSince!)
  ) {
    await tx
      .update(webhookEndpoints)
      .set({ failingNotifiedAt: now(deps) })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await tellEndpointFailing(tx, notice, { base, disableAfterDays: days });
  }
  const retriable = !gone && !blocked && state.enabled && !disableReason;
  const delay = retriable ? nextDelaySeconds(deliverySchedule(deps.config, endpoint.mode), step, result) : null;
  const outcome: DeliveryOutcome = delay === null ? "failed" : "retry";

  await tx
    .update(webhookDeliveries)
    .set({
      status: outcome === "retry" ? "pending" : "failed",
      attempts: attempt,
      lastStatusCode: result.statusCode,
      lastError: result.error?.slice(0, 500) ?? null,
      nextAttemptAt: delay === null ? null : new Date(now(deps).getTime() + delay * 1000),
      updatedAt: now(deps),
    })
    .where(eq(webhookDeliveries.id, delivery.id));
  await tx.insert(webhookAttempts).values({
    deliveryId: delivery.id,
    trigger: job.trigger,
    startedAt,
    durationMs: result.durationMs,
    statusCode: result.statusCode,
    responseBody: result.responseBody,
    errorClass: result.errorClass,
    error: result.error?.slice(0, 500) ?? null,
    signature: sent.signature,
  });
  if (delay !== null) {
    const next: DeliverJob = {
      deliveryId: delivery.id,
      messageId: delivery.messageId,
      attempt,
      step: step + 1,
      trigger: "scheduled",
    };
    await enqueue(deps.queue, tx, QUEUES.deliverWebhook, next, { delaySeconds: delay });
  }
  return outcome;
}

/**
 * Every success of a batch in one statement (no transaction round trips): the guarded update
 * claims each attempt as a failure's row lock does, the log rows and the end of failure streaks
 * go with it. A success touches its endpoint only to end a failure streak, so deliveries to a
 * healthy endpoint do not queue up behind each other on its row lock. Returns the claimed ids.
 */
async function writeSuccesses(db: Db, successes: Success[]): Promise<Set<string>> {
  if (!successes.length) return new Set();
  const input = JSON.stringify(
    successes.map((s) => ({
      id: s.deliveryId,
      expected: s.expected,
      attempt: s.attempt,
      trigger: s.trigger,
      status_code: s.result.statusCode,
      started_at: s.startedAt.toISOString(),
      at: s.at.toISOString(),
      duration_ms: s.result.durationMs,
      response_body: s.result.responseBody,
      signature: s.signature,
    })),
  );
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      with r as (
        select * from jsonb_to_recordset(${input}::jsonb) as r(id uuid, expected int, attempt int, trigger text, status_code int,
          started_at timestamptz, at timestamptz, duration_ms int, response_body text, signature text)
      ), claimed as (
        update ${d}
        set ${bare(d.status)} = 'succeeded', ${bare(d.attempts)} = r.attempt, ${bare(d.lastStatusCode)} = r.status_code,
            ${bare(d.lastError)} = null, ${bare(d.nextAttemptAt)} = null, ${bare(d.updatedAt)} = r.at, ${bare(d.deliveredAt)} = r.at
        from r
        where ${d.id} = r.id and ${d.attempts} = r.expected and ${d.status} = 'pending'
        returning ${d.id}, ${d.endpointId}
      ), logged as (
        insert into ${a} (${bare(a.deliveryId)}, ${bare(a.trigger)}, ${bare(a.startedAt)}, ${bare(a.durationMs)}, ${bare(a.statusCode)}, ${bare(a.responseBody)}, ${bare(a.signature)})
        select r.id, r.trigger, r.started_at, r.duration_ms, r.status_code, r.response_body, r.signature
        from r join claimed on claimed.${bare(d.id)} = r.id
      ), healthy as (
        update ${e} set ${bare(e.failingSince)} = null
        where ${e.id} in (select ${bare(d.endpointId)} from claimed) and ${e.failingSince} is not null
      )
      select ${bare(d.id)} as id from claimed`),
  );
  return new Set(rows.map((row) => row.id));
}
