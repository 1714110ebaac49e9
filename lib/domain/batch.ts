// A portfolio registered in one request (the contract's "Portfolios"): the Batch, its items and
// their counts. One zod schema each is the type, the OpenAPI description and the tests' oracle.
import { z } from "zod";
import { Timestamp } from "./property";

export const BATCH_STATUSES = ["queued", "running", "completed", "cancelled"] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** An item's status as partners see it; `pending` until its property's enrichment is final. */
export const BATCH_ITEM_STATUSES = [
  "invalid",
  "duplicate",
  "pending",
  "enriched",
  "partially_enriched",
  "not_found",
  "cancelled",
] as const;
export type BatchItemStatus = (typeof BATCH_ITEM_STATUSES)[number];
/** One value per item status, in BATCH_ITEM_STATUSES' order: a record the compiler sees whole. */
const byItemStatus = <V>(value: () => V): Record<BatchItemStatus, V> => ({
  invalid: value(),
  duplicate: value(),
  pending: value(),
  enriched: value(),
  partially_enriched: value(),
  not_found: value(),
  cancelled: value(),
});

/** An item's final statuses (nothing more happens to it). */
export const FINAL_ITEM_STATUSES = BATCH_ITEM_STATUSES.filter((s) => s !== "pending");

export const BatchCounts = z
  .object({
    total: z.number().int(),
    ...byItemStatus(() => z.number().int()),
  })
  .meta({ id: "BatchCounts", description: "Items per status; they add up to `total`." });
export type BatchCounts = z.infer<typeof BatchCounts>;

export const emptyCounts = (total = 0): BatchCounts => ({ total, ...byItemStatus(() => 0) });

export const Batch = z
  .object({
    batch_id: z.uuid(),
    name: z.string().nullable(),
    status: z.enum(BATCH_STATUSES).meta({
      description:
        "queued: accepted, not started; running: items are being registered and enriched; completed: every item " +
        "is final; cancelled: cancelled by the partner (items already registered still finish enriching).",
    }),
    counts: BatchCounts,
    created_at: Timestamp,
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable().meta({ description: "When every item was final or cancelled." }),
  })
  .meta({ id: "Batch" });
export type Batch = z.infer<typeof Batch>;

export const BatchItemError = z
  .object({
    code: z.literal("invalid_cadastral_reference"),
    detail: z.string(),
  })
  .meta({ id: "BatchItemError" });

export const BatchItem = z
  .object({
    line: z.number().int().meta({ description: "1-based position in the input (CSV: the data row, header excluded)." }),
    cadastral_reference: z.string().meta({ description: "Normalised when valid; as sent (trimmed) when invalid." }),
    external_id: z.string().nullable(),
    status: z.enum(BATCH_ITEM_STATUSES).meta({
      description:
        "invalid: not a valid reference (see error); duplicate: the same reference earlier in the batch (its " +
        "property_id is that item's); pending: registered or waiting to be, enriching; then the property's final " +
        "status; cancelled: the batch was cancelled before the item started.",
    }),
    property_id: z.uuid().nullable(),
    error: BatchItemError.nullable(),
  })
  .meta({ id: "BatchItem" });
export type BatchItem = z.infer<typeof BatchItem>;
