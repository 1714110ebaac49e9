"use server";

// The Portfolios page's actions: preview an uploaded file, submit it as a batch, cancel a batch.
// Through the API's own commands and checks, counted against the partner's write limit.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { memberFor } from "@/server/session";
import type { ButtonResult } from "../../_components/action-button";
import {
  cancelBatch,
  fileFormat,
  previewUpload,
  readUpload,
  submitBatch,
  type Preview,
  type Upload,
} from "@/lib/batches";
import { DomainError, whereOf, type Scope } from "@/lib/domain";
import { chunksOf } from "@/lib/http/read-capped";
import { budgetOn, rateLimitBucket } from "@/lib/rate-limit";
import type { App } from "@/server/app";
import { requestSignal } from "@/server/request-signal";

export type PreviewResult = { preview: Preview; fileName: string } | { error: string };
export type SubmitResult = { error: string } | undefined;

const problem = (error: DomainError) =>
  error.errors?.length
    ? `${error.detail} (${error.errors.map((e) => `${whereOf(e)}: ${e.detail}`).join("; ")})`
    : error.detail;

/** The partner's write budget, shared with its integration: a portfolio from either side counts once. */
const writeBudget = (app: App, scope: Scope) => budgetOn(app.rateLimiter, rateLimitBucket(scope));

/** The form's file, read in this request: its reading ends when the browser goes. */
function uploaded(form: FormData): Upload & { name: string } {
  const file = form.get("file");
  if (!(file instanceof File) || !file.size)
    throw new DomainError("validation_error", "Choose a CSV or XLSX file first.");
  return { name: file.name, format: fileFormat(file.name), body: chunksOf(file.stream()), signal: requestSignal() };
}

export async function previewPortfolioAction(form: FormData): Promise<PreviewResult> {
  // Only a member who may submit reads the file.
  const ctx = await memberFor("submitPortfolio");
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope } = ctx;
  try {
    const upload = uploaded(form);
    return { preview: await previewUpload(app, scope, writeBudget(app, scope), upload), fileName: upload.name };
  } catch (error) {
    if (error instanceof DomainError) return { error: problem(error) };
    throw error;
  }
}

export async function submitPortfolioAction(form: FormData): Promise<SubmitResult> {
  const ctx = await memberFor("submitPortfolio");
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope } = ctx;
  let id: string;
  try {
    const name =
      String(form.get("name") ?? "")
        .trim()
        .slice(0, 200) || null;
    // The columns picked in the preview when it recognised none (the API's reference_column and external_id_column).
    const picked = (field: string) => String(form.get(field) ?? "").slice(0, 200) || null;
    const columns = { reference: picked("reference_column"), externalId: picked("external_id_column") };
    const read = async () => {
      const { items, digest } = await readUpload(app, scope, { ...uploaded(form), columns });
      return { name, items, idempotencyKey: null, requestHash: digest };
    };
    id = (await submitBatch(app, scope, writeBudget(app, scope), read)).batch.batch_id;
  } catch (error) {
    if (error instanceof DomainError) return { error: problem(error) };
    throw error;
  }
  revalidatePath("/portfolios");
  redirect(`/portfolios/${id}`);
}

export async function cancelPortfolioAction(form: FormData): Promise<ButtonResult> {
  const ctx = await memberFor("cancelPortfolio");
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope } = ctx;
  const id = String(form.get("id") ?? "");
  try {
    await cancelBatch(app, scope, writeBudget(app, scope), id);
  } catch (error) {
    if (error instanceof DomainError) return { error: problem(error) };
    throw error;
  }
  revalidatePath(`/portfolios/${id}`);
  return undefined;
}
