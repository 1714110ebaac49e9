import { methodNotAllowed } from "@/lib/partner-api";
import { handler } from "@/lib/partner-api/server";

export const POST = handler("createProperty");
export const GET = handler("listProperties");

const other = methodNotAllowed(["GET", "POST"]);
export { other as PUT, other as PATCH, other as DELETE, other as OPTIONS };
