// zod schemas of requests and of the envelopes around domain objects: the single source for
// request validation, response types and the OpenAPI document (with lib/domain's Property, and the
// write commands' own request schemas in lib/properties and lib/webhooks).
import { z } from "zod";
import "zod-openapi";
import { Batch, BATCH_ITEM_STATUSES, BatchItem, isUuid, PROPERTY_STATUSES, Property } from "@/lib/domain";
import { MAX_JSON_ITEMS, MAX_TEXT } from "@/lib/batches";
import { HEADER_ROWS } from "@/lib/spreadsheets/header";
import { WebhookEndpoint } from "@/lib/webhooks/endpoints";
import { BATCH_ID, BATCH_NAME, PROPERTY_ID, REFERENCE } from "./examples";

/** A whole number in a query string, from `min` to `max`: decimal digits only (z.coerce would also take "1e2", "0x10" or " 5"). */
function wholeNumber(min: number, max: number, error = `must be a whole number from ${min} to ${max}`) {
  const number = z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
  return z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v), number);
}

/** A keyset cursor: the id of the last object of the previous page (`example`: one such id). */
const startingAfter = (example: string) =>
  z.uuid().optional().meta({
    description: "The `next_starting_after` of the previous page: the page starts after that object.",
    param: { example },
  });

const limit = (max: number) =>
  wholeNumber(1, max)
    .default(20)
    .meta({ description: `Items per page, 1 to ${max}; default 20.` });

export const ListPropertiesQuery = z.strictObject({
  limit: limit(100),
  starting_after: startingAfter(PROPERTY_ID),
  status: z
    .enum(PROPERTY_STATUSES)
    .optional()
    .meta({
      description: `Only properties in this status (${PROPERTY_STATUSES.join(", ")}); default: every status.`,
      param: { example: "enriched" },
    }),
  cadastral_reference: z
    .string()
    .max(100)
    // PostgreSQL text cannot hold a NUL: asked for, it was a 500.
    .refine((s) => !s.includes("\u0000"), "must not contain NUL characters")
    .optional()
    .meta({
      description: "Only the property of this reference (normalised as on create): `data` holds at most one.",
      param: { example: REFERENCE },
    }),
});

/** Text a partner names things with: PostgreSQL text cannot hold a NUL. */
const label = () =>
  z
    .string()
    .max(MAX_TEXT)
    .refine((s) => !s.includes("\u0000"), "must not contain NUL characters");

export const CreateBatchBody = z
  .strictObject({
    items: z
      .array(
        z.strictObject({
          cadastral_reference: z
            .string()
            .meta({ description: "As on a single create; an invalid one makes its item `invalid`, not the request." }),
          external_id: label()
            .nullable()
            .optional()
            .meta({ description: "Your own id for the item, echoed in items and results." }),
        }),
      )
      .min(1)
      .max(MAX_JSON_ITEMS),
    name: label().optional(),
  })
  .meta({ id: "CreateBatchRequest" });

const columnName = (what: string) =>
  z
    .string()
    .min(1)
    .max(MAX_TEXT)
    .refine((s) => !s.includes("\u0000"), "must not contain NUL characters")
    .optional()
    .meta({
      description: `For a CSV or XLSX body: the header name of the column holding ${what} (any case; accents, spaces and hyphens ignored), when it is not named as the body's schema says. The header row is then the first of the first ${HEADER_ROWS} rows holding that name.`,
    });

export const CreateBatchQuery = z.strictObject({
  name: label()
    .optional()
    .meta({
      description: "The batch's name, for a CSV or XLSX body (a JSON body names it in `name`).",
      param: { example: BATCH_NAME },
    }),
  reference_column: columnName("the cadastral references"),
  external_id_column: columnName("your ids (`external_id`)"),
});

/** Where a file's header may be and what it names: the same for CSV and XLSX. */
const HEADER_RULE = `a header row, found among the first ${HEADER_ROWS} rows (title rows above it are skipped), naming \`cadastral_reference\` (or \`referencia_catastral\`, \`refcat\`; any case) and optionally \`external_id\` (or the columns named by \`reference_column\` and \`external_id_column\`); other columns are ignored`;

export const CreateBatchCsv = z.string().meta({
  description: `UTF-8 CSV (a BOM allowed), \`,\` or \`;\` separated, ${HEADER_RULE}.`,
});

export const CreateBatchXlsx = z.string().meta({
  format: "binary",
  description: `An XLSX workbook: its first sheet is read (other sheets are not), ${HEADER_RULE}. Cells read as their text (dates as YYYY-MM-DD; formulas as the result the workbook stored).`,
});

const IDEMPOTENCY_KEY = "must be 1 to 200 visible ASCII characters";

export const IdempotencyHeaders = z.object({
  "Idempotency-Key": z
    .string()
    .max(MAX_TEXT, { error: IDEMPOTENCY_KEY })
    .regex(/^[\x21-\x7e]+$/, { error: IDEMPOTENCY_KEY })
    .optional()
    .meta({
      description:
        "Up to 200 visible characters: the same key and body within 24 h answer 200 with what the first request created, and create nothing; the same key with another body is a 422.",
    }),
});

export const ListBatchesQuery = z.strictObject({ limit: limit(100), starting_after: startingAfter(BATCH_ID) });

export const ListBatchItemsQuery = z.strictObject({
  limit: limit(1000),
  starting_after: wholeNumber(0, 2 ** 31 - 1, "must be a line number")
    .optional()
    .meta({ description: "The `line` after which the page starts." }),
  status: z
    .enum(BATCH_ITEM_STATUSES)
    .optional()
    .meta({
      description: `Only items in this status (${BATCH_ITEM_STATUSES.join(", ")}); default: every status.`,
      param: { example: "invalid" },
    }),
});

const page = <T extends z.ZodType>(item: T, cursor: z.ZodType, id: string) =>
  z
    .object({
      data: z.array(item),
      has_more: z.boolean(),
      next_starting_after: cursor.nullable().meta({ description: "Pass as starting_after for the next page." }),
    })
    .meta({ id });

export const PropertyList = page(Property, z.uuid(), "PropertyList");
export const BatchList = page(Batch, z.uuid(), "BatchList");
export const BatchItemList = page(BatchItem, z.number().int(), "BatchItemList");

/** A path segment that must be an id: decoded and lower-cased, or null when it cannot name one. */
function idOf(segment: string): string | null {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    return null; // a malformed percent-encoding names nothing
  }
  return isUuid(id) ? id.toLowerCase() : null;
}

/** What `finca listen` answers a live key (422). */
export const LISTEN_LIVE_KEY = "finca listen works with test keys only: live events go to your registered endpoints.";
/** What `finca listen` answers a partner with all its `max` sessions open (429). */
export const listenSessionsRefusal = (max: number) =>
  `At most ${max} listen sessions per partner at once: close one and retry.`;

/** What a 404 says of an id that names nothing of the key's partner and mode. */
export const notFoundDetail = (what: string) => `No ${what} with this id for this API key's partner and mode.`;

/**
 * The id of a `what` in the path, decoded and lower-cased; any segment that cannot name one fails
 * with the 404 an unknown id answers (never a 422), which the wrapper answers. `example`: one such id.
 */
export const idParam = (what: string, example: string) =>
  z.object({
    id: z
      .string()
      .transform((segment, ctx) => {
        const id = idOf(segment);
        if (id === null) ctx.issues.push({ code: "custom", input: segment, message: notFoundDetail(what) });
        return id ?? z.NEVER;
      })
      .meta({
        description: "The item's id (a UUID). Any other value, like an unknown id, answers 404.",
        param: { example },
      }),
  });

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    request_id: z.string(),
    errors: z
      .array(
        z.union([
          z.object({ pointer: z.string(), detail: z.string() }),
          z.object({ parameter: z.string(), detail: z.string() }),
          z.object({ header: z.string(), detail: z.string() }),
          z.object({ line: z.number().int(), detail: z.string() }),
        ]),
      )
      .optional(),
  })
  .meta({ id: "Problem" });

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().meta({ description: "Signing secret (whsec_...), shown only in this response." }),
}).meta({ id: "WebhookEndpointWithSecret" });

export const WebhookEndpointList = z.object({ data: z.array(WebhookEndpoint) }).meta({ id: "WebhookEndpointList" });
