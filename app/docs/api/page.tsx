import { apiReference, type FieldView, type OperationView, type TypeView } from "@/lib/portal/openapi-view";
import { ERROR_TITLES } from "@/lib/domain";
import { connection } from "next/server";
import { getApp } from "@/server/app";
import { requestOrigin } from "@/server/session";
import { Card, CodeBlock, PageHeader, Rich } from "../../_components/ui";

export const metadata = { title: "API reference" };

// Problem codes in response descriptions link to their explanation.
const ERROR_LINKS = Object.fromEntries(Object.keys(ERROR_TITLES).map((code) => [code, `/docs/errors#${code}`]));

const METHOD_TONE: Record<string, string> = {
  get: "bg-sky-100 text-sky-900",
  post: "bg-brand-100 text-brand-900",
  patch: "bg-amber-100 text-amber-900",
  delete: "bg-red-100 text-red-900",
};

function Type({ type }: { type: TypeView }) {
  return type.ref ? (
    <a className="link font-mono text-xs" href={`#${type.ref}`}>
      {type.text}
    </a>
  ) : (
    <span className="font-mono text-xs text-slate-700">{type.text}</span>
  );
}

function Fields({ fields, depth = 0 }: { fields: FieldView[]; depth?: number }) {
  return (
    <>
      {fields.map((f) => (
        <FieldRows key={f.name} field={f} depth={depth} />
      ))}
    </>
  );
}

function FieldRows({ field: f, depth }: { field: FieldView; depth: number }) {
  return (
    <>
      <tr>
        <td className="whitespace-nowrap font-mono text-xs" style={{ paddingLeft: `${0.75 + depth * 1.25}rem` }}>
          {depth > 0 && (
            <span aria-hidden="true" className="text-slate-400">
              └{" "}
            </span>
          )}
          {f.name}
          {!f.required && (
            <span className="ml-1 text-slate-500" title="optional">
              ?
            </span>
          )}
        </td>
        <td>
          <Type type={f.type} />
        </td>
        <td className="text-xs text-slate-700">
          {f.description && <Rich text={f.description} />}
          {f.values && (
            <span className="mt-1 flex flex-wrap gap-1">
              {f.values.map((v) => (
                <code key={v} className="code-inline">
                  {v}
                </code>
              ))}
            </span>
          )}
        </td>
      </tr>
      {f.fields && <Fields fields={f.fields} depth={depth + 1} />}
    </>
  );
}

function Operation({ op, authHeader }: { op: OperationView; authHeader: string | null }) {
  return (
    <Card id={op.anchor} className="scroll-mt-4">
      <h3 className="flex flex-wrap items-center gap-2 font-mono text-sm">
        <span
          className={`rounded px-1.5 py-0.5 text-xs font-bold uppercase ${METHOD_TONE[op.method] ?? "bg-slate-100 text-slate-900"}`}
        >
          {op.method}
        </span>
        <span className="break-all font-semibold text-slate-900">{op.path}</span>
      </h3>
      <p className="mt-2 font-medium text-slate-900">{op.summary}</p>
      {op.description && (
        <p className="mt-1 text-sm text-slate-700">
          <Rich text={op.description} />
        </p>
      )}
      {authHeader && (
        <p className="mt-2 text-xs text-slate-600">
          Authenticated with the <code className="code-inline">{authHeader}</code> header.
        </p>
      )}

      {op.parameters.length > 0 && (
        <>
          <h4 className="mb-1 mt-4 text-xs font-semibold uppercase tracking-wide text-slate-600">Parameters</h4>
          <RefTable label={`Parameters of ${op.anchor}`} headers={["Name", "In", "Type", "Notes"]}>
            {op.parameters.map((p) => (
              <tr key={`${p.in}-${p.name}`}>
                <td className="whitespace-nowrap font-mono text-xs">
                  {p.name}
                  {!p.required && (
                    <span className="ml-1 text-slate-500" title="optional">
                      ?
                    </span>
                  )}
                </td>
                <td className="text-xs">{p.in}</td>
                <td>
                  <Type type={p.type} />
                </td>
                <td className="text-xs text-slate-700">{p.description && <Rich text={p.description} />}</td>
              </tr>
            ))}
          </RefTable>
        </>
      )}

      {op.body && (
        <p className="mt-4 text-sm">
          <span className="text-xs font-semibold uppercase tracking-wide text-slate-600">Body</span>{" "}
          <code className="code-inline">{op.body.contentType}</code> <Type type={op.body.type} />
        </p>
      )}

      <h4 className="mb-1 mt-4 text-xs font-semibold uppercase tracking-wide text-slate-600">Responses</h4>
      <ul className="divide-y divide-slate-100 text-sm">
        {op.responses.map((r) => (
          <li key={r.status} className="grid grid-cols-[3rem_1fr] gap-2 py-1.5">
            <span
              className={`font-mono font-semibold ${r.status.startsWith("2") ? "text-emerald-800" : "text-red-800"}`}
            >
              {r.status}
            </span>
            <span>
              <Rich text={r.description} links={ERROR_LINKS} />
              {r.type && (
                <>
                  {" "}
                  · <Type type={r.type} />
                </>
              )}
              {r.headers.length > 0 && (
                <span className="block text-xs text-slate-600">Headers: {r.headers.join(", ")}</span>
              )}
            </span>
          </li>
        ))}
      </ul>
      {op.example && (
        <div className="mt-4">
          <CodeBlock label={`Example: ${op.summary}`}>{op.example}</CodeBlock>
        </div>
      )}
    </Card>
  );
}

/** A reference table (an operation's parameters, a schema's fields): `children` are its rows. */
function RefTable({ label, headers, children }: { label: string; headers: string[]; children: React.ReactNode }) {
  return (
    <div data-scrolls className="overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
      <table className="table">
        <thead>
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export default async function ApiReference() {
  await connection(); // the settings are the running server's, not the build's
  const ref = apiReference((await getApp()).config, await requestOrigin());
  return (
    <div className="lg:grid lg:grid-cols-[14rem_1fr] lg:gap-8">
      <nav
        aria-label="Reference contents"
        className="mb-6 text-sm lg:sticky lg:top-6 lg:mb-0 lg:max-h-[calc(100vh-3rem)] lg:self-start lg:overflow-y-auto"
      >
        <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-600">Operations</p>
        <ul className="mb-4 space-y-1">
          {ref.operations.map((op) => (
            <li key={op.anchor}>
              <a className="text-slate-700 hover:text-brand-700 hover:underline" href={`#${op.anchor}`}>
                <span className="mr-1 font-mono text-[10px] font-bold uppercase text-slate-500">{op.method}</span>
                {op.summary}
              </a>
            </li>
          ))}
        </ul>
        <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-600">Schemas</p>
        <ul className="flex flex-wrap gap-x-3 gap-y-1 lg:block lg:space-y-1">
          {ref.schemas.map((s) => (
            <li key={s.name}>
              <a
                className="font-mono text-xs text-slate-700 hover:text-brand-700 hover:underline"
                href={`#${s.anchor}`}
              >
                {s.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0">
        <PageHeader
          title="API reference"
          description={
            <>
              {ref.info.title} {ref.info.version}. Base path <code className="code-inline">{ref.base}</code>. Generated
              from the{" "}
              <a className="link" href="/api/v1/partner-api/openapi.json">
                OpenAPI document
              </a>{" "}
              that validates every request.
            </>
          }
        />
        {ref.info.description && (
          <p className="mb-6 max-w-prose text-sm text-slate-700">
            <Rich text={ref.info.description} />
          </p>
        )}
        <h2 className="sr-only">Operations</h2>
        <div className="space-y-4">
          {ref.operations.map((op) => (
            <Operation key={op.anchor} op={op} authHeader={ref.authHeader} />
          ))}
        </div>

        {ref.webhooks.length > 0 && (
          <>
            <h2 className="mb-3 mt-10 text-xl font-semibold">Webhooks</h2>
            <div className="space-y-4">
              {ref.webhooks.map((w) => (
                <Card key={w.anchor} id={w.anchor} className="scroll-mt-4">
                  <h3 className="font-mono text-sm font-semibold">{w.path}</h3>
                  <p className="mt-1 font-medium">{w.summary}</p>
                  {w.description && (
                    <p className="mt-1 text-sm text-slate-700">
                      <Rich text={w.description} />
                    </p>
                  )}
                  {w.body && (
                    <p className="mt-2 text-sm">
                      Payload: <code className="code-inline">{`{"type", "timestamp", "data": Property}`}</code> (
                      <a className="link" href="#schema-Property">
                        Property
                      </a>
                      )
                    </p>
                  )}
                </Card>
              ))}
            </div>
          </>
        )}

        <h2 className="mb-3 mt-10 text-xl font-semibold">Schemas</h2>
        <div className="space-y-4">
          {ref.schemas.map((s) => (
            <Card
              key={s.name}
              id={s.anchor}
              title={<span className="font-mono">{s.name}</span>}
              className="scroll-mt-4"
            >
              {s.description && (
                <p className="mb-2 text-sm text-slate-700">
                  <Rich text={s.description} />
                </p>
              )}
              <RefTable label={`Fields of ${s.name}`} headers={["Field", "Type", "Notes"]}>
                <Fields fields={s.fields} />
              </RefTable>
            </Card>
          ))}
        </div>
      </div>
    </div>
  );
}
