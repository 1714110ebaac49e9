import type { BatchCounts } from "@/lib/domain";

/** How far a batch is: items final (or invalid, duplicate, cancelled) out of all, with the counts. */
export function BatchProgress({ counts, compact = false }: { counts: BatchCounts; compact?: boolean }) {
  const done = counts.total - counts.pending;
  const share = counts.total ? done / counts.total : 1;
  const parts: [string, number][] = [
    ["enriched", counts.enriched],
    ["partially enriched", counts.partially_enriched],
    ["not found", counts.not_found],
    ["invalid", counts.invalid],
    ["duplicate", counts.duplicate],
    ["cancelled", counts.cancelled],
    ["pending", counts.pending],
  ];
  return (
    <div>
      <div
        role="progressbar"
        aria-label="Items final"
        aria-valuemin={0}
        aria-valuemax={counts.total}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${counts.total} items final`}
        className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-600" style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
      <p className="mt-1 text-xs tabular-nums text-slate-700" data-testid="batch-counts">
        {done.toLocaleString("en")} of {counts.total.toLocaleString("en")} final
        {!compact &&
          parts
            .filter(([, n]) => n > 0)
            .map(([label, n]) => ` · ${n.toLocaleString("en")} ${label}`)
            .join("")}
      </p>
    </div>
  );
}
