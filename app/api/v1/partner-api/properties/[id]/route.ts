import { methodNotAllowed } from "@/lib/partner-api";
import { handler } from "@/lib/partner-api/server";

export const GET = handler("getProperty");

const other = methodNotAllowed(["GET"]);
export { other as POST, other as PUT, other as PATCH, other as DELETE, other as OPTIONS };
