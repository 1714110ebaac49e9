// The coverage table (GET /coverage) as the docs and the admin console show it.
import type { CommunityCoverage, CoverageSource } from "@/lib/domain";
import { Badge, TableWrap } from "./ui";
import { countOf } from "@/lib/portal/format";

/** A source's best kind and the providers asked, in order. */
function SourceView({ source }: { source: CoverageSource }) {
  return (
    <>
      <Badge value={source.kind} />
      {source.partial && (
        <span className="ml-1 text-xs text-slate-600" data-testid="coverage-partial">
          partial: {source.area}
        </span>
      )}
      <ul className="mt-1 space-y-0.5 text-xs text-slate-700">
        {source.providers.map((p) => (
          <li key={p.provider} className="font-mono">
            {p.provider}
            {p.kind === "index" && (
              <span className="font-sans text-slate-600">
                {" "}
                · {countOf(p.rows ?? 0, "row")} as of {p.as_of ?? "an unknown date"}
                {p.stale && (
                  <>
                    {" "}
                    <Badge value="stale" />
                  </>
                )}
              </span>
            )}
            {p.licence && <span className="font-sans text-slate-600"> · {p.licence}</span>}
            {p.format_evidence && (
              <span className="font-sans text-slate-600" title={p.citations.join("\n")} data-testid="format-evidence">
                {" "}
                · format {p.format_evidence.replace("_", " ")}
              </span>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

const SOURCES = [
  ["cadastre", "Cadastre"],
  ["energy_certificate", "Energy certificate"],
  ["ite", "ITE"],
] as const;

const Note = ({ note }: { note: string | null | undefined }) =>
  note ? <p className="mt-1 max-w-xs text-xs font-normal normal-case tracking-normal text-slate-600">{note}</p> : null;

/**
 * A table from the small breakpoint up; on a phone, where four columns would scroll out of sight,
 * one card per community with its three sources one under the other.
 */
export function CoverageTable({ rows }: { rows: CommunityCoverage[] }) {
  return (
    <>
      <div className="hidden sm:block">
        <TableWrap label="Coverage per autonomous community">
          <table className="table" data-testid="coverage-table">
            <thead>
              <tr>
                <th scope="col">Community</th>
                {SOURCES.map(([, label]) => (
                  <th key={label} scope="col">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.ccaa} data-testid="coverage-row">
                  <th scope="row" className="text-left font-medium">
                    {row.ccaa}
                    <Note note={row.note} />
                  </th>
                  {SOURCES.map(([source]) => (
                    <td key={source}>
                      <SourceView source={row[source]} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </div>
      <ul className="space-y-3 sm:hidden" aria-label="Coverage per autonomous community">
        {rows.map((row) => (
          <li
            key={row.ccaa}
            className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm"
            data-testid="coverage-card"
          >
            <p className="text-sm font-medium text-slate-900">{row.ccaa}</p>
            <Note note={row.note} />
            <dl className="mt-2 grid grid-cols-[6.5rem_1fr] gap-x-3 gap-y-2 text-sm">
              {SOURCES.map(([source, label]) => (
                <div key={source} className="contents">
                  <dt className="text-slate-600">{label}</dt>
                  <dd className="min-w-0 break-words">
                    <SourceView source={row[source]} />
                  </dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}
