// A portfolio's results for the signed-in partner: CSV or XLSX, streamed as the API's are.
import { requirePartner } from "@/server/session";
import { exportResults } from "@/lib/batches";

const TYPES = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { app, scope } = await requirePartner();
  const results = await exportResults(app.db, scope, (await params).id);
  if (!results)
    return new Response("No such portfolio.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  const { batch } = results;
  const format = new URL(req.url).searchParams.get("format") === "xlsx" ? "xlsx" : "csv";
  const name = `${(batch.name ?? "portfolio").replace(/[^\w.-]+/g, "_").slice(0, 80)}-${batch.batch_id.slice(0, 8)}.${format}`;
  return new Response(results.stream(format), {
    headers: {
      "Content-Type": TYPES[format],
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
}
