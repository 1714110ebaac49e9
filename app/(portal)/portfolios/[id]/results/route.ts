// A portfolio's results for the signed-in partner: CSV, XLSX or NDJSON, streamed as the API's are.
import { requirePartner } from "@/server/session";
import { exportResults, resultsContentType, RESULTS_MEDIA_TYPES, type ResultsFormat } from "@/lib/batches";

const isFormat = (format: string | null): format is ResultsFormat =>
  !!format && Object.hasOwn(RESULTS_MEDIA_TYPES, format);

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { app, scope } = await requirePartner();
  const results = await exportResults(app.db, scope, (await params).id);
  if (!results)
    return new Response("No such portfolio.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  const { batch } = results;
  const asked = new URL(req.url).searchParams.get("format");
  const format = isFormat(asked) ? asked : "csv";
  const name = `${(batch.name ?? "portfolio").replace(/[^\w.-]+/g, "_").slice(0, 80)}-${batch.batch_id.slice(0, 8)}.${format}`;
  return new Response(results.stream(format), {
    headers: {
      "Content-Type": resultsContentType(format),
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
}
