"use server";

// The Properties page's action: the API's create (its schema, its command, the partner's write
// budget shared with the integration), so the portal accepts and refuses what the API does.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { memberFor } from "@/server/session";
import { parseBody } from "@/lib/domain";
import { createProperty, CreatePropertyInput } from "@/lib/properties";
import { budgetOn, rateLimitBucket } from "@/lib/rate-limit";
import { attempt, type ActionState } from "../../_components/form-action";

export async function registerPropertyAction(_: ActionState, form: FormData): Promise<ActionState> {
  const ctx = await memberFor("registerProperty");
  if ("refused" in ctx) return { error: ctx.refused };
  const { app, scope } = ctx;
  const typed = { cadastral_reference: String(form.get("cadastral_reference") ?? "") };
  const made = await attempt(async () => {
    const budget = budgetOn(app.rateLimiter, rateLimitBucket(scope));
    return createProperty(app, scope, budget, parseBody(CreatePropertyInput, typed));
  }, typed);
  if ("error" in made) return made;
  revalidatePath("/properties");
  redirect(`/properties/${made.property.property_id}`);
}
