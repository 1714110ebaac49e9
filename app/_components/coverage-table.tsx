// The coverage table (GET /coverage) as the docs and the admin console show it.
import type { CommunityCoverage, CoverageSource } from "@/lib/domain";
import { Badge, TableWrap } from "./ui";

function Cell({ source }: { source: CoverageSource }) {
  return (
    <td>
      <Badge value={source.kind} />
      <ul className="mt-1 space-y-0.5 text-xs text-slate-700">
        {source.providers.map((p) => (
          <li key={p.provider} className="font-mono">
            {p.provider}
            {p.kind === "index" && (
              <span className="font-sans text-slate-600">
                {" "}
                · {p.rows?.toLocaleString("en")} rows as of {p.as_of}
              </span>
            )}
            {p.format_evidence && (
              <span className="font-sans text-slate-600" title={p.citations.join("\n")} data-testid="format-evidence">
                {" "}
                · format {p.format_evidence.replace("_", " ")}
              </span>
            )}
          </li>
        ))}
      </ul>
    </td>
  );
}

export function CoverageTable({ rows }: { rows: CommunityCoverage[] }) {
  return (
    <TableWrap label="Coverage per autonomous community">
      <table className="table" data-testid="coverage-table">
        <thead>
          <tr>
            <th scope="col">Community</th>
            <th scope="col">Cadastre</th>
            <th scope="col">Energy certificate</th>
            <th scope="col">ITE</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.ccaa} data-testid="coverage-row">
              <th scope="row" className="text-left font-medium">
                {row.ccaa}
                {row.note && <p className="mt-1 max-w-xs text-xs font-normal text-slate-600">{row.note}</p>}
              </th>
              <Cell source={row.cadastre} />
              <Cell source={row.energy_certificate} />
              <Cell source={row.ite} />
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
