// The queues and what each job carries: one zod schema per queue types `enqueue` and the workers,
// and checks each job's data as a worker reads it back from the database (jsonb holds anything).
import { z } from "zod";
import { QUEUES, type QueueName } from "@/lib/db";
import { DELIVERY_TRIGGERS } from "@/lib/domain";

// The queues themselves are made with the database's schema (lib/db/queues.ts).
export { QUEUES, type QueueName } from "@/lib/db";

const count = z.number().int().min(0);

const SCHEMAS = {
  [QUEUES.enrich]: z.object({
    propertyId: z.guid(),
    /** The run's number: a job whose number is not the property's next run is stale and does nothing. */
    run: count,
    /** The queue priority of the property's runs (a portfolio's run below single creates'). */
    priority: z.number().int().optional(),
  }),
  [QUEUES.deliverWebhook]: z.object({
    deliveryId: z.guid(),
    /** The delivery's `webhook-id` (msg_…), so each log line of its runs names it; absent in older jobs. */
    messageId: z.string().optional(),
    /** The delivery's attempt count when the job was queued: a job that finds another count is stale. */
    attempt: count,
    /**
     * Position in the retry schedule of this job's attempt: 0 for a first attempt or a replay.
     * Absent in jobs queued before replays reset the schedule; their position is `attempt`.
     */
    step: count.optional(),
    trigger: z.enum(DELIVERY_TRIGGERS),
  }),
  [QUEUES.refreshRegisters]: z.object({
    /** One dataset; every configured one when absent (the schedule). */
    dataset: z.string().optional(),
  }),
  [QUEUES.batch]: z.object({
    batchId: z.guid(),
    /** The step to run: a retried step that already ran carries a stale number and does nothing. */
    step: z.number().int().min(1),
  }),
  [QUEUES.pruneRequestLogs]: z.object({}),
  [QUEUES.sendEmail]: z.object({
    emailId: z.guid(),
    /** The email's attempt count when the job was queued: a job that finds another count is stale. */
    attempt: count,
  }),
} satisfies Record<QueueName, z.ZodType>;

/** What a job of queue `Q` carries. */
export type JobData<Q extends QueueName> = z.infer<(typeof SCHEMAS)[Q]>;

/** Each queue's job schema, typed per queue: `JOB_DATA[name]` parses exactly that queue's data. */
export const JOB_DATA: { [Q in QueueName]: z.ZodType<JobData<Q>> } = SCHEMAS;
