import { handler } from "@/lib/partner-api/server";

export const GET = handler("listWebhookEndpoints");
export const POST = handler("createWebhookEndpoint");
