// /webhook-endpoints: list, create (the secret is shown once), delete.
import { createEndpoint, deleteEndpoint, EndpointUrlError, listEndpoints, toEndpointJson } from "@/lib/webhooks/endpoints";
import { ApiError } from "./errors";
import { idFromPath, json, readJsonBody } from "./request";
import { parseBody } from "./validation";
import { CreateWebhookEndpointBody } from "./schemas";
import type { HandlerContext } from "./route";

export async function listWebhookEndpointsHandler({ app, principal }: HandlerContext): Promise<Response> {
  return json({ data: (await listEndpoints(app.db, principal)).map(toEndpointJson) });
}

export async function createWebhookEndpointHandler({ app, req, principal }: HandlerContext): Promise<Response> {
  const body = parseBody(CreateWebhookEndpointBody, await readJsonBody(req));
  try {
    const { endpoint, secret } = await createEndpoint(app.db, principal, body, app.config.FINCA_WEBHOOKS_ALLOW_PRIVATE);
    return json({ ...toEndpointJson(endpoint), secret }, 201, { Location: `/api/v1/partner-api/webhook-endpoints/${endpoint.id}` });
  } catch (error) {
    if (error instanceof EndpointUrlError) {
      throw new ApiError(422, "validation_error", "The webhook URL is not acceptable.", { errors: [{ pointer: "/url", detail: error.message }] });
    }
    throw error;
  }
}

export async function deleteWebhookEndpointHandler({ app, req, principal }: HandlerContext): Promise<Response> {
  const id = idFromPath(req);
  if (!id || !(await deleteEndpoint(app.db, principal, id))) {
    throw new ApiError(404, "not_found", "No webhook endpoint with this id for this API key's partner and mode.");
  }
  return new Response(null, { status: 204 });
}
