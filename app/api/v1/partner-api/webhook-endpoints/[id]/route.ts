import { handler } from "@/lib/partner-api/server";

export const DELETE = handler("deleteWebhookEndpoint");
