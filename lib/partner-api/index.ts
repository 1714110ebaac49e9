// The partner API as plain `(Request) => Promise<Response>` handlers over an App: no Next.js here,
// so tests call them directly and any server can host them.
import type { App } from "@/lib/app";
import { ApiError } from "./errors";
import { json } from "./request";
import { openApiDocument } from "./openapi";
import { createProperty, getProperty, listPropertiesHandler } from "./properties";
import { createWebhookEndpointHandler, deleteWebhookEndpointHandler, listWebhookEndpointsHandler } from "./webhook-endpoints";
import { partnerRoute, publicRoute, type Handler } from "./route";

export type PartnerApi = ReturnType<typeof createPartnerApi>;

export function createPartnerApi(app: App) {
  return {
    createProperty: partnerRoute(app, { write: true }, createProperty),
    getProperty: partnerRoute(app, { write: false }, getProperty),
    listProperties: partnerRoute(app, { write: false }, listPropertiesHandler),
    listWebhookEndpoints: partnerRoute(app, { write: false }, listWebhookEndpointsHandler),
    createWebhookEndpoint: partnerRoute(app, { write: true }, createWebhookEndpointHandler),
    deleteWebhookEndpoint: partnerRoute(app, { write: true }, deleteWebhookEndpointHandler),
  } satisfies Record<string, Handler>;
}

export const openApi: Handler = publicRoute(async () => json(openApiDocument()));

export const notFound: Handler = publicRoute(async (req) => {
  throw new ApiError(404, "not_found", `No operation at ${new URL(req.url).pathname}.`);
});

/**
 * The answer to a method a path does not have; `Allow` lists those it has (HEAD wherever GET is).
 * Route files export it for their other methods, which Next.js would answer with a bare 405.
 */
export function methodNotAllowed(methods: string[]): Handler {
  const allow = (methods.includes("GET") ? [...methods, "HEAD"] : methods).join(", ");
  return publicRoute(async () => {
    throw new ApiError(405, "method_not_allowed", `This path answers only ${allow}.`, { headers: { Allow: allow } });
  });
}
