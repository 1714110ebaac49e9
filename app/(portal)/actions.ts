"use server";

// The layout's action: the portal's data mode, test or live (live only with live access).
import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { MODE_COOKIE, requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { hasLiveAccess } from "@/lib/partners/live";
import { field } from "../_components/form-action";

export async function switchMode(form: FormData) {
  const { app, partnerId, user } = await requirePartner();
  const mode = field(form, "mode") === "live" ? "live" : "test";
  // Without live access there is no live mode to switch to: the request form instead (for a role that sees it).
  if (mode === "live" && !(await hasLiveAccess(app.db, partnerId)))
    return can(user.role, "keys") ? redirect("/keys#live-access") : undefined;
  (await cookies()).set(MODE_COOKIE, mode, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 365 * 24 * 3600,
  });
  // A property or endpoint belongs to one mode: from its page, go to the list of the other mode.
  if (/^\/properties\/.+/.test(field(form, "from"))) redirect("/properties");
  revalidatePath("/", "layout");
}
