// A property's enrichment over time: every attempt of every register, as lanes and as a table.
import { SOURCES } from "@/lib/domain";
import type { timeline } from "@/lib/portal/queries";
import { formatDuration, LaneChart } from "../../../_components/charts";
import { DataTable } from "../../../_components/data-table";
import { Badge, Card } from "../../../_components/ui";

export const SOURCE_LABEL: Record<string, string> = {
  cadastre: "Cadastre",
  energy_certificate: "Energy certificate",
  ite: "ITE",
};
const OUTCOME_COLOR: Record<string, string> = {
  completed: "text-emerald-500",
  not_found: "text-slate-400",
  error: "text-red-500",
  timeout: "text-amber-500",
};

type Step = Awaited<ReturnType<typeof timeline>>[number];

/** `origin`: the create request's arrival; `end`: the last instant shown (now while enriching). */
export function Timeline({ steps, origin, end }: { steps: Step[]; origin: number; end: number }) {
  const since = (s: Step) => Math.max(0, s.startedAt.getTime() - origin);
  return (
    <Card
      title="Enrichment timeline"
      className="mt-4"
      actions={<span className="text-xs text-slate-600">time since registration</span>}
    >
      {steps.length ? (
        <>
          <LaneChart
            label="Attempts per source over time"
            spanMs={end - origin}
            lanes={SOURCES.map((source) => ({
              label: SOURCE_LABEL[source]!,
              marks: steps
                .filter((s) => s.source === source)
                .map((s) => ({
                  startMs: since(s),
                  durationMs: s.durationMs,
                  color: OUTCOME_COLOR[s.outcome]!,
                  title: `#${s.attempt} ${s.outcome} in ${s.durationMs} ms`,
                })),
            }))}
          />
          <div className="mt-3 flex flex-wrap gap-3 text-xs text-slate-600" aria-hidden="true">
            {Object.entries(OUTCOME_COLOR).map(([outcome, color]) => (
              <span key={outcome} className="inline-flex items-center gap-1.5">
                <span className={`size-2.5 rounded-sm bg-current ${color}`} />
                {outcome.replace("_", " ")}
              </span>
            ))}
          </div>
          <div className="mt-4">
            <DataTable
              label="Enrichment attempts"
              rows={steps}
              rowKey={(s) => s.id}
              columns={[
                {
                  header: "Started",
                  cell: (s) => <span className="whitespace-nowrap tabular-nums">+{formatDuration(since(s))}</span>,
                },
                {
                  header: "Source",
                  cell: (s) => (
                    <>
                      {SOURCE_LABEL[s.source]} <span className="text-slate-500">#{s.attempt}</span>
                    </>
                  ),
                },
                {
                  header: "Outcome",
                  cell: (s) => (
                    <>
                      <Badge value={s.outcome} />
                      <span className="mt-0.5 block text-xs tabular-nums text-slate-600 sm:hidden">
                        {s.durationMs} ms
                      </span>
                      {s.error && s.error !== s.outcome && (
                        <span className="mt-0.5 block font-mono text-xs text-red-700">{s.error}</span>
                      )}
                    </>
                  ),
                },
                { header: "Took", cell: (s) => `${s.durationMs} ms`, from: "sm", className: "tabular-nums" },
                {
                  header: "Run",
                  cell: (s) => (s.trigger === "inline" ? "during the create request" : "background retry"),
                  from: "md",
                },
              ]}
            />
          </div>
        </>
      ) : (
        <p className="text-sm text-slate-600">No attempts recorded yet.</p>
      )}
    </Card>
  );
}
