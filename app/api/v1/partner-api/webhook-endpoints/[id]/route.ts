import { methodNotAllowed } from "@/lib/partner-api";
import { handler } from "@/lib/partner-api/server";

export const DELETE = handler("deleteWebhookEndpoint");

const other = methodNotAllowed(["DELETE"]);
export { other as GET, other as HEAD, other as POST, other as PUT, other as PATCH, other as OPTIONS };
