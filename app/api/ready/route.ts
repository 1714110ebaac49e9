// Readiness: database, migrations and queue (lib/ops, server/ops).
import { handleReady } from "@/server/ops";

export const dynamic = "force-dynamic";
export const GET = handleReady;
