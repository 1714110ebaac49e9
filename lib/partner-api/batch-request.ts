// POST /batches as HTTP: a JSON body, or a CSV or XLSX body (read as a stream, by the same reader as
// the portal's uploads), the Idempotency-Key header, and a hash of what was sent, so a repeated key
// can tell the same request from another one.
import { createHash } from "node:crypto";
import { fileLimitsOf, readFile, RESULTS_MEDIA_TYPES, type FileReaders, type Submission } from "@/lib/batches";
import { bodyChunks, isJson, keepingBody, parseJsonBytes, readBody, unsupportedType } from "./request";
import { CreateBatchBody, type CreateBatchQuery } from "./schemas";
import type { z } from "zod";
import { DomainError, parseBody } from "@/lib/domain";

const contentType = (req: Request) => (req.headers.get("content-type") ?? "").trim();

/** The file format of a CSV (UTF-8) or XLSX body, or null for another media type. */
function fileFormatOf(req: Request): "csv" | "xlsx" | null {
  const type = contentType(req);
  if (/^text\/csv\s*(;\s*charset="?utf-8"?\s*)?$/i.test(type)) return "csv";
  if (type.toLowerCase() === RESULTS_MEDIA_TYPES.xlsx) return "xlsx";
  return null;
}

/** Query parameters only a file body takes. */
const FILE_PARAMETERS = ["name", "reference_column", "external_id_column"] as const;

const hashOf = (...parts: string[]) => createHash("sha256").update(parts.join("\n")).digest("hex");

/**
 * The request's submission; `query` and `key` (its Idempotency-Key) are as the operation's wrapper
 * parsed them (CreateBatchQuery, IdempotencyHeaders).
 */
export async function readBatchRequest(
  req: Request,
  query: z.output<typeof CreateBatchQuery>,
  key: string | null,
  { config, fileReaders }: { config: Parameters<typeof fileLimitsOf>[0]; fileReaders: FileReaders },
  partnerId: string,
): Promise<Submission> {
  if (isJson(req)) {
    // A JSON body names its batch itself, and its members are named.
    const given = FILE_PARAMETERS.filter((parameter) => query[parameter] !== undefined);
    if (given.length)
      throw new DomainError(
        "validation_error",
        "The query parameters are invalid.",
        given.map((parameter) => ({
          parameter,
          detail:
            parameter === "name"
              ? "unknown parameter: a JSON body names its batch with `name`"
              : "unknown parameter: only a CSV or XLSX body has columns to name",
        })),
      );
    const bytes = await readBody(req, config.BATCH_MAX_BYTES);
    const body = parseBody(CreateBatchBody, parseJsonBytes(bytes));
    const items = body.items.map((i) => ({
      reference: i.cadastral_reference,
      externalId: i.external_id?.trim() || null,
    }));
    return {
      name: body.name?.trim() || null,
      items,
      idempotencyKey: key,
      requestHash: hashOf("json", createHash("sha256").update(bytes).digest("hex")),
    };
  }
  const format = fileFormatOf(req);
  if (!format) throw unsupportedType(req, `application/json, text/csv (UTF-8) or ${RESULTS_MEDIA_TYPES.xlsx}`);
  // A body declared larger than the cap is not read (a workbook's first sheet may end before the cap is reached).
  if (Number(req.headers.get("content-length") ?? 0) > config.BATCH_MAX_BYTES)
    throw new DomainError("validation_error", `The body must not exceed ${config.BATCH_MAX_BYTES} bytes.`, [
      { pointer: "", detail: `more than ${config.BATCH_MAX_BYTES} bytes` },
    ]);
  const choice = { reference: query.reference_column ?? null, externalId: query.external_id_column ?? null };
  const context = { partnerId, readers: fileReaders, signal: req.signal };
  const body = keepingBody(req, bodyChunks(req));
  const { items, digest } = await readFile(format, body, fileLimitsOf(config), context, choice);
  const name = query.name?.trim() || null;
  // The columns named are part of the request: the same file read by other columns is another one
  // (without them, the hash of a CSV is what it was before columns could be named).
  const named = choice.reference || choice.externalId ? [choice.reference ?? "", choice.externalId ?? ""] : [];
  const requestHash = hashOf(format, name ?? "", digest, ...named);
  return { name, items, idempotencyKey: key, requestHash };
}
