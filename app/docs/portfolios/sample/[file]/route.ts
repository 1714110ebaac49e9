// GET /docs/portfolios/sample/portfolio.csv|.xlsx: a sample test-mode portfolio (lib/batches/sample.ts),
// on new parcels at each download. Public like the guide that offers it: sandbox references only.
import { randomUUID } from "node:crypto";
import { samplePortfolio } from "@/lib/batches";

const TYPES = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const format = /^portfolio\.(csv|xlsx)$/.exec(file)?.[1];
  if (format !== "csv" && format !== "xlsx")
    return new Response("No such sample: portfolio.csv or portfolio.xlsx.\n", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return new Response(await samplePortfolio(format, randomUUID()), {
    headers: {
      "Content-Type": TYPES[format],
      "Content-Disposition": `attachment; filename="sample-portfolio.${format}"`,
      // New parcels each time: a cached copy would register nothing new on a second upload.
      "Cache-Control": "no-store",
    },
  });
}
