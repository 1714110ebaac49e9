import { requireOperator } from "@/server/session";
import {
  cadastreIndex,
  coverage,
  describeSkips,
  listDatasets,
  liveProviders,
  type FormatEvidence,
} from "@/lib/registers";
import { registerHealth, type WindowStats } from "@/lib/portal/registers";
import type { BreakerState } from "@/lib/enrichment/sources/breaker";
import type { FormatEvidenceLevel } from "@/lib/domain";
import { ActionButton } from "../../_components/action-button";
import { formatDuration } from "../../_components/charts";
import { CoverageTable } from "../../_components/coverage-table";
import { DataTable } from "../../_components/data-table";
import { Badge, Card, Missing, PageHeader, Percent, TableWrap, Time } from "../../_components/ui";
import { adminRefreshRegister } from "../actions";
import { countOf } from "@/lib/portal/format";

export const metadata = { title: "Registers" };

const BREAKER_BADGE: Record<BreakerState, { value: string; label: string }> = {
  closed: { value: "ok", label: "closed" },
  half_open: { value: "retrying", label: "half-open: one trial request" },
  open: { value: "failed", label: "open: not asked" },
};

/** A format's evidence level as operators read it (lib/domain FORMAT_EVIDENCE). */
const EVIDENCE_LABEL: Record<FormatEvidenceLevel, string> = {
  confirmed: "confirmed",
  single_source: "one source",
  unconfirmed: "unconfirmed",
};

/** How far a source's format rests on evidence, with the citations (a dataset's, a cadastre copy's source's). */
function Evidence({ of }: { of: FormatEvidence }) {
  return (
    <>
      <Badge value={of.level} label={EVIDENCE_LABEL[of.level]} />
      <ul className="mt-1 list-disc pl-4 text-xs text-slate-600">
        {of.citations.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
    </>
  );
}

const ms = (v: number | null) => (v === null ? "—" : formatDuration(v));

function Window({ stats }: { stats: WindowStats }) {
  return (
    <>
      <td className="tabular-nums">{stats.attempts}</td>
      <td>
        <Percent value={stats.successRate} />
      </td>
      <td className="whitespace-nowrap tabular-nums">
        {ms(stats.p50Ms)} / {ms(stats.p99Ms)}
      </td>
    </>
  );
}

/** How many rows a dataset's last import holds, and what it skipped. */
function DatasetRows({ dataset: d }: { dataset: Awaited<ReturnType<typeof listDatasets>>[number] }) {
  return (
    <>
      {d.rows ? <span data-testid="dataset-rows">{d.rows.toLocaleString("en")}</span> : <Missing>not imported</Missing>}
      {d.skipped > 0 && <p className="text-xs text-slate-600">{countOf(d.skipped, "row")} skipped</p>}
      {describeSkips(d.skips).map((line) => (
        <p key={line} className="max-w-xs break-words text-xs text-slate-600" data-testid="dataset-skips">
          {line}
        </p>
      ))}
    </>
  );
}

export default async function AdminRegisters() {
  const { app } = await requireOperator();
  const states = app.breakers.states();
  const providers = [...new Set([...liveProviders(), ...Object.keys(states)])];
  const [datasets, covered, health, copies] = await Promise.all([
    listDatasets(app.db, app.config.REGISTER_STALE_DAYS),
    coverage(app.db, app.config.REGISTER_STALE_DAYS),
    registerHealth(app.db, providers),
    cadastreIndex(app.db).copies(app.config.REGISTER_STALE_DAYS),
  ]);
  const {
    REGISTER_BREAKER_ERROR_PERCENT: percent,
    REGISTER_BREAKER_MIN_REQUESTS: min,
    REGISTER_BREAKER_WINDOW_SECONDS: window,
    REGISTER_BREAKER_COOLDOWN_SECONDS: cooldown,
  } = app.config;
  const configured = new Set(app.config.REGISTER_URLS.map((u) => u.dataset));
  return (
    <>
      <PageHeader
        title="Registers"
        description="The live registers' health (enrichment attempts of every instance over the last hour and day, from the attempt log, and this instance's circuit breakers), and the register index: local copies of open certificate and inspection datasets, asked before the live registers. Datasets with URLs in REGISTER_URLS are refreshed on REGISTER_REFRESH_CRON; files are imported with the CLI (registers import)."
      />
      <Card
        title="Register health"
        className="mb-6"
        actions={
          <span className="text-xs text-slate-600">
            a breaker opens at {percent} % failures of at least {min} requests in {window} s, and tries again after{" "}
            {cooldown} s
          </span>
        }
      >
        <TableWrap label="Register health">
          <table className="table">
            <thead>
              <tr>
                <th scope="col" rowSpan={2}>
                  Register
                </th>
                <th scope="col" rowSpan={2}>
                  Breaker (this instance)
                </th>
                <th scope="colgroup" colSpan={3}>
                  Last hour
                </th>
                <th scope="colgroup" colSpan={3}>
                  Last day
                </th>
                <th scope="col" rowSpan={2}>
                  Last error
                </th>
              </tr>
              <tr>
                <th scope="col">Attempts</th>
                <th scope="col">Answered</th>
                <th scope="col">p50 / p99</th>
                <th scope="col">Attempts</th>
                <th scope="col">Answered</th>
                <th scope="col">p50 / p99</th>
              </tr>
            </thead>
            <tbody>
              {health.map((r) => {
                const failure = app.breakers.lastFailure(r.provider);
                return (
                  <tr key={r.provider} data-testid="register">
                    <th scope="row" className="font-mono text-xs normal-case tracking-normal">
                      {r.provider}
                    </th>
                    <td>
                      <Badge {...BREAKER_BADGE[states[r.provider] ?? "closed"]} />
                    </td>
                    <Window stats={r.hour} />
                    <Window stats={r.day} />
                    <td className="text-xs">
                      {r.lastError ? (
                        <>
                          <span className="font-mono">{r.lastError.code}</span> <Time value={r.lastError.at} />
                        </>
                      ) : (
                        "none"
                      )}
                      {failure && (
                        <p className="mt-1 max-w-xs break-words text-slate-600" title={failure.at.toISOString()}>
                          {failure.message}
                        </p>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      </Card>
      <Card title={`Datasets (${datasets.length})`} className="mb-6">
        <DataTable
          label="Register index datasets"
          rows={datasets}
          rowKey={(d) => d.id}
          rowTestId="register-dataset"
          columns={[
            {
              header: "Dataset",
              cell: (d) => (
                <>
                  <span className="font-mono text-xs">{d.id}</span>
                  <p className="text-xs text-slate-600">{d.title}</p>
                  <p className="text-xs text-slate-600">Download: {d.download}</p>
                </>
              ),
            },
            {
              header: "Community",
              cell: (d) => (
                <>
                  {d.ccaa}
                  {d.area && <p className="text-xs text-slate-600">{d.area}</p>}
                </>
              ),
            },
            { header: "Format evidence", className: "max-w-sm", cell: (d) => <Evidence of={d.evidence} /> },
            { header: "Rows", cell: (d) => <DatasetRows dataset={d} /> },
            {
              header: "As of, licence",
              cell: (d) => (
                <>
                  {d.asOf ?? <Missing />}
                  {d.asOfBasis && (
                    <p className="text-xs text-slate-600">
                      {d.asOfBasis === "published" ? "publisher's date" : "latest record's date"}
                    </p>
                  )}
                  {d.stale && <Badge value="stale" />}
                  <p className="text-xs text-slate-600" title={d.licence.source}>
                    {d.licence.name}
                  </p>
                </>
              ),
            },
            { header: "Imported", cell: (d) => <Time value={d.importedAt} />, from: "md" },
            {
              header: "Last error",
              className: "max-w-sm text-xs",
              cell: (d) =>
                d.lastError ? (
                  <>
                    <Badge value="failed" /> <span className="break-words">{d.lastError}</span>
                  </>
                ) : (
                  <Missing />
                ),
            },
            {
              header: null,
              className: "text-right",
              cell: (d) =>
                configured.has(d.id) ? (
                  <ActionButton action={adminRefreshRegister} id={d.id} pendingText="Queuing…">
                    Refresh now
                  </ActionButton>
                ) : (
                  <span className="text-xs text-slate-600">no URL configured</span>
                ),
            },
          ]}
        />
      </Card>
      <Card title={`Cadastre index (${copies.length} copies)`} className="mb-6">
        <p className="mb-3 text-sm text-slate-600">
          Catastro&apos;s bulk data, one copy per source and municipality, asked before the live cadastre
          (docs/cadastre-index.md); imported with the CLI (registers import catastro-inspire|catastro-cat).
        </p>
        {copies.length ? (
          <DataTable
            label="Cadastre index copies"
            rows={copies}
            rowKey={(c) => `${c.source}:${c.municipality}`}
            rowTestId="cadastre-copy"
            columns={[
              { header: "Source", cell: (c) => <span className="font-mono text-xs">{c.source}</span> },
              { header: "Municipality", cell: (c) => c.municipality },
              { header: "Format evidence", className: "max-w-sm", cell: (c) => <Evidence of={c.evidence} /> },
              {
                header: "Records",
                cell: (c) =>
                  Object.entries(c.counts)
                    .map(([kind, n]) => `${n.toLocaleString("en")} ${kind}`)
                    .join(", "),
              },
              {
                header: "As of",
                cell: (c) => (
                  <>
                    {c.asOf ?? <Missing />}
                    {c.asOfFrom && <p className="text-xs text-slate-600">{c.asOfFrom}</p>}
                    {c.stale && <Badge value="stale" />}
                  </>
                ),
              },
              { header: "Imported", cell: (c) => <Time value={c.importedAt} />, from: "md" },
              {
                header: "Last error",
                className: "max-w-sm text-xs",
                cell: (c) => (c.lastError ? <span className="break-words">{c.lastError}</span> : <Missing />),
              },
            ]}
          />
        ) : (
          <p className="text-sm text-slate-600">No copy imported.</p>
        )}
      </Card>
      <Card title="Coverage">
        <CoverageTable rows={covered} />
      </Card>
    </>
  );
}
