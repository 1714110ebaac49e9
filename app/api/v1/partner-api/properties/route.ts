import { handler } from "@/lib/partner-api/server";

export const POST = handler("createProperty");
export const GET = handler("listProperties");
