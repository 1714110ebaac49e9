import { handler } from "@/lib/partner-api/server";

export const GET = handler("getProperty");
