// Prometheus scrape, bearer METRICS_TOKEN when set (lib/ops, server/ops).
import { handleMetrics } from "@/server/ops";

export const dynamic = "force-dynamic";
export const GET = handleMetrics;
