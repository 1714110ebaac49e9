// POST /batches as HTTP: a JSON body or a CSV body (read as a stream), the Idempotency-Key header,
// and a hash of what was sent, so a repeated key can tell the same request from another one.
import { createHash } from "node:crypto";
import { fileLimitsOf, readFile, type FileReaders, type Submission } from "@/lib/batches";
import { chunksOf } from "@/lib/http/read-capped";
import { isJson, keepingBody, parseJsonBytes, readBody, unsupportedType } from "./request";
import { CreateBatchBody, type CreateBatchQuery } from "./schemas";
import type { z } from "zod";
import { DomainError, parseBody } from "@/lib/domain";

const isCsv = (req: Request) =>
  /^text\/csv\s*(;\s*charset="?utf-8"?\s*)?$/i.test((req.headers.get("content-type") ?? "").trim());

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
    // A JSON body names its batch itself.
    if (query.name !== undefined)
      throw new DomainError("validation_error", "The query parameters are invalid.", [
        { parameter: "name", detail: "unknown parameter: a JSON body names its batch with `name`" },
      ]);
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
  if (!isCsv(req)) throw unsupportedType(req, "application/json or text/csv (UTF-8)");
  const { items, digest } = await readFile("csv", keepingBody(req, chunksOf(req.body)), fileLimitsOf(config), {
    partnerId,
    readers: fileReaders,
    signal: req.signal,
  });
  const name = query.name?.trim() || null;
  return { name, items, idempotencyKey: key, requestHash: hashOf("csv", name ?? "", digest) };
}
