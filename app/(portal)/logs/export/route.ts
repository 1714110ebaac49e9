// The Logs list as CSV for the signed-in partner, with the page's filters.
import { requirePartner } from "@/server/session";
import { requestLogsCsv } from "@/lib/request-logs";
import { logFilters } from "@/lib/portal/params";

export async function GET(req: Request) {
  const { app, partnerId, mode, user } = await requirePartner();
  const params = new URL(req.url).searchParams;
  const one = (name: string) => params.get(name) ?? undefined;
  const { search } = logFilters({
    q: one("q"),
    status: one("status"),
    path: one("path"),
    from: one("from"),
    to: one("to"),
  });
  return new Response(requestLogsCsv(app.db, { partnerId, mode, role: user.role, ...search }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="logs-${mode}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
