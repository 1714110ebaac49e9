import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { requirePartner } from "@/server/session";
import { getRequestLog } from "@/lib/request-logs";
import { BodyView } from "../../../_components/body-view";
import { statusTone } from "../../../_components/request-log-table";
import { Badge, Card, Missing, PageHeader, TableWrap, Time } from "../../../_components/ui";

export const metadata = { title: "Request" };

/**
 * The stored problem+json, as much of it as the page shows: its detail and field errors (a member of
 * another shape is not shown; the whole answer still is, below).
 */
const ShownProblem = z.looseObject({
  detail: z.string().optional(),
  errors: z
    .array(
      z.looseObject({
        pointer: z.string().optional(),
        parameter: z.string().optional(),
        header: z.string().optional(),
        detail: z.string().optional(),
      }),
    )
    .optional(),
});
type FieldError = NonNullable<z.infer<typeof ShownProblem>["errors"]>[number];

/** Where a field error points: the body's JSON pointer, a query parameter or a header. */
const placeOf = (e: FieldError) =>
  e.pointer !== undefined
    ? `body ${e.pointer || "(whole body)"}`
    : e.parameter
      ? `query ${e.parameter}`
      : e.header
        ? `header ${e.header}`
        : "—";

export default async function RequestLogPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { app, partnerId, mode, user } = await requirePartner();
  // Scoped to the partner and mode: another partner's row is simply not found. A role that may not
  // see this mode's endpoints sees no URL in it (lib/request-logs).
  const row = /^\d{1,15}$/.test(id)
    ? await getRequestLog(app.db, { partnerId, mode, role: user.role }, Number(id))
    : null;
  if (!row) notFound();
  const shown = ShownProblem.safeParse(row.problem);
  const problem = row.problem ? (shown.data ?? {}) : null;
  const headers = Object.entries(row.requestHeaders ?? {});
  return (
    <>
      <PageHeader
        title={
          <span className="font-mono text-lg">
            {row.method} {row.path}
            {row.query && <span className="text-slate-600">?{row.query}</span>}
          </span>
        }
        description="What the API received and answered. Keys and secrets are redacted before anything is stored."
        actions={
          <Link className="btn-secondary" href="/logs">
            All requests
          </Link>
        }
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Answer">
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="font-medium text-slate-600">Status</dt>
            <dd>
              <Badge value={statusTone(row.status)} label={String(row.status)} />
              {row.errorCode && <span className="ml-1 font-mono text-xs text-slate-700">{row.errorCode}</span>}
            </dd>
            <dt className="font-medium text-slate-600">Time</dt>
            <dd>
              <Time value={row.at} seconds />
            </dd>
            <dt className="font-medium text-slate-600">Duration</dt>
            <dd className="tabular-nums">{row.durationMs} ms</dd>
            <dt className="font-medium text-slate-600">Key</dt>
            <dd className="font-mono text-xs">{row.keyVisibleStart ? `${row.keyVisibleStart}…` : <Missing />}</dd>
            <dt className="font-medium text-slate-600">Request id</dt>
            <dd className="break-all font-mono text-xs" data-testid="request-id">
              {row.requestId}
            </dd>
            <dt className="font-medium text-slate-600">Property</dt>
            <dd className="break-all font-mono text-xs">
              {row.propertyId ? (
                <Link className="link" href={`/properties/${row.propertyId}`}>
                  {row.propertyId}
                </Link>
              ) : (
                <Missing />
              )}
            </dd>
          </dl>
        </Card>
        {problem && (
          <Card title="Error">
            {problem.detail && <p className="mb-3 text-sm text-slate-800">{problem.detail}</p>}
            {problem.errors?.length ? (
              <TableWrap label="Field errors">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Where</th>
                      <th scope="col">Why</th>
                    </tr>
                  </thead>
                  <tbody>
                    {problem.errors.map((e, i) => (
                      <tr key={i} data-testid="field-error">
                        <td className="font-mono text-xs">{placeOf(e)}</td>
                        <td>{e.detail}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            ) : null}
            <details className="mt-3">
              <summary className="cursor-pointer text-xs font-medium text-brand-700">The problem+json answered</summary>
              <pre className="mt-2 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono text-[11px] text-slate-800 ring-1 ring-slate-200">
                {JSON.stringify(row.problem, null, 2)}
              </pre>
            </details>
          </Card>
        )}
      </div>
      <Card title="Request body" className="mt-4">
        {row.requestBody ? (
          <BodyView text={row.requestBody} testId="request-body" tall />
        ) : (
          <p className="text-sm text-slate-600">No body was read.</p>
        )}
        <p className="mt-2 text-xs text-slate-600">The first 4 KiB are kept (… marks a longer body).</p>
      </Card>
      <Card title="Request headers" className="mt-4">
        {headers.length ? (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 font-mono text-xs">
            {headers.map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="text-slate-600">{name}</dt>
                <dd className="break-all">{value}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="text-sm text-slate-600">Not recorded (a request logged before headers were kept).</p>
        )}
      </Card>
    </>
  );
}
