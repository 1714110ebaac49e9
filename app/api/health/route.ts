// Liveness: answers while the process does, without the database (lib/ops).
import { healthResponse } from "@/lib/ops";

export const dynamic = "force-dynamic";
export const GET = () => healthResponse();
