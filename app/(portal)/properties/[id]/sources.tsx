// Which registers were asked for a property, how often, by which provider, their last error, and
// whose data each answer is (as of when, under which licence, the notices they require).
import { SOURCES, type Property } from "@/lib/domain";
import { Badge, Card, Time } from "../../../_components/ui";
import { SOURCE_LABEL } from "./timeline";
import { countOf } from "@/lib/portal/format";

export function Sources({ property }: { property: Property }) {
  return (
    <Card title="Sources" className="lg:col-span-2">
      <ul className="divide-y divide-slate-100 text-sm">
        {SOURCES.map((source) => {
          const e = property.enrichment[source];
          return (
            <li key={source} className="py-2 first:pt-0 last:pb-0">
              <div className="flex items-center justify-between gap-2">
                <span className="font-medium text-slate-800">{SOURCE_LABEL[source]}</span>
                {e.status === "completed" && !e.attempts ? (
                  <Badge value="skipped" />
                ) : source === "cadastre" && property.status === "not_found" ? (
                  <Badge value="not_found" />
                ) : (
                  <Badge value={e.status} label={e.status === "pending" ? "retrying" : e.status} />
                )}
              </div>
              <p className="mt-0.5 text-xs text-slate-600">
                {e.attempts ? (
                  <>
                    {countOf(e.attempts, "attempt")} · last <Time value={e.updated_at} seconds />
                  </>
                ) : e.status === "pending" ? (
                  "waiting for the cadastre"
                ) : property.status === "not_found" ? (
                  "not asked: the cadastre does not know the reference"
                ) : (
                  "not needed"
                )}
                {e.provider && (
                  <>
                    {" "}
                    · from <code className="font-mono">{e.provider}</code>
                  </>
                )}
                {e.error && (
                  <span className="text-red-700">
                    {" "}
                    · last error <code className="font-mono">{e.error}</code>
                  </span>
                )}
              </p>
              {(e.as_of || e.licence) && (
                <p className="mt-0.5 text-xs text-slate-600" data-testid="source-provenance">
                  {e.as_of && <>data as of {e.as_of}</>}
                  {e.retrieved_at && (
                    <>
                      {" "}
                      · read <Time value={e.retrieved_at} />
                    </>
                  )}
                  {e.licence && <> · {e.licence}</>}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      {property.attribution.length > 0 && (
        <p className="mt-2 border-t border-slate-100 pt-2 text-xs text-slate-600" data-testid="attribution">
          Sources: {property.attribution.join("; ")}
        </p>
      )}
    </Card>
  );
}
