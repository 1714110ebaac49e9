// The Properties list as CSV for the signed-in partner, with the page's filters.
import { requirePartner } from "@/server/session";
import { propertiesCsv } from "@/lib/properties";
import { propertyFilters } from "@/lib/portal/params";

export async function GET(req: Request) {
  const { app, scope } = await requirePartner();
  const params = new URL(req.url).searchParams;
  const { list } = propertyFilters({
    q: params.get("q") ?? undefined,
    status: params.get("status") ?? undefined,
    from: params.get("from") ?? undefined,
    to: params.get("to") ?? undefined,
  });
  return new Response(propertiesCsv(app.db, scope, list), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="properties-${scope.mode}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
