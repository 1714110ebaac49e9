// /properties: create (the partners' first call), get one, list.
import { checkReference } from "@/lib/cadastral-reference";
import { getPropertyJson, listProperties } from "@/lib/properties";
import { registerProperty } from "@/lib/properties/register";
import { ApiError } from "./errors";
import { idFromPath, json, readJsonBody } from "./request";
import { parseBody, parseQuery } from "./validation";
import { CreatePropertyBody, ListPropertiesQuery } from "./schemas";
import type { HandlerContext } from "./route";

const REASONS = {
  length: "must be 14 (parcel) or 20 (unit) characters after removing spaces and hyphens",
  charset: "may contain only digits and the letters A-Z and Ñ",
  check_letters: "has wrong check letters (characters 19-20)",
} as const;

export async function createProperty({ app, req, principal, startedAt }: HandlerContext): Promise<Response> {
  const body = parseBody(CreatePropertyBody, await readJsonBody(req));
  const check = checkReference(body.cadastral_reference);
  if (!check.ok) {
    throw new ApiError(400, "invalid_cadastral_reference", `The cadastral reference "${check.reference}" ${REASONS[check.reason]}.`);
  }
  const { created, property } = await registerProperty(app, principal, check.reference, startedAt);
  return created
    ? json(property, 201, { Location: `/api/v1/partner-api/properties/${property.property_id}` })
    : json(property, 200);
}

export async function getProperty({ app, req, principal }: HandlerContext): Promise<Response> {
  const id = idFromPath(req);
  const property = id ? await getPropertyJson(app.db, principal, id) : null;
  if (!property) throw new ApiError(404, "not_found", "No property with this id for this API key's partner and mode.");
  return json(property);
}

export async function listPropertiesHandler({ app, req, principal }: HandlerContext): Promise<Response> {
  const query = parseQuery(ListPropertiesQuery, new URL(req.url));
  const page = await listProperties(app.db, principal, { limit: query.limit, startingAfter: query.starting_after, status: query.status });
  if (!page) {
    throw new ApiError(422, "validation_error", "The query parameters are invalid.", {
      errors: [{ parameter: "starting_after", detail: "does not name a property of this partner and mode" }],
    });
  }
  return json(page);
}
