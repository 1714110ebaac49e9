import { methodNotAllowed } from "@/lib/partner-api";

export { openApi as GET } from "@/lib/partner-api";

const other = methodNotAllowed(["GET"]);
export { other as POST, other as PUT, other as PATCH, other as DELETE, other as OPTIONS };
