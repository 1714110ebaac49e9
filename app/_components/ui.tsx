// Small presentational pieces shared by the portal, the docs and the admin console.
import type { ReactNode } from "react";
import { percentText } from "@/lib/portal/format";

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="break-words text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {description && <div className="mt-1 text-sm text-slate-600">{description}</div>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

export function Card({
  title,
  actions,
  children,
  className = "",
  id,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
}) {
  return (
    <section id={id} className={`rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5 ${className}`}>
      {(title || actions) && (
        <div className="mb-4 flex flex-wrap items-start justify-between gap-2">
          {title && <h2 className="min-w-0 text-base font-semibold text-slate-900">{title}</h2>}
          {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

/** A key figure with its label and an optional line of context. */
export function Stat({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{value}</p>
      {hint && <p className="mt-1 text-xs text-slate-600">{hint}</p>}
    </div>
  );
}

const GOOD = "bg-emerald-50 text-emerald-800 ring-emerald-600/20";
const BUSY = "bg-sky-50 text-sky-800 ring-sky-600/20";
const WARN = "bg-amber-50 text-amber-900 ring-amber-600/25";
const BAD = "bg-red-50 text-red-800 ring-red-600/20";
const NEUTRAL = "bg-slate-100 text-slate-700 ring-slate-500/20";

const TONES: Record<string, string> = {
  enriched: GOOD,
  completed: GOOD,
  succeeded: GOOD,
  found: GOOD,
  enabled: GOOD,
  active: GOOD,
  ok: GOOD,
  enriching: BUSY,
  pending: BUSY,
  queued: BUSY,
  running: BUSY,
  retrying: WARN,
  partially_enriched: WARN,
  near: WARN,
  failing: WARN,
  timeout: WARN,
  stale: WARN,
  not_required: NEUTRAL,
  unsupported: NEUTRAL,
  not_found: NEUTRAL,
  failed: BAD,
  error: BAD,
  invalid: BAD,
  overdue: BAD,
  revoked: BAD,
  disabled: BAD,
  over: BAD,
  // A register format's evidence (lib/domain FORMAT_EVIDENCE).
  confirmed: GOOD,
  single_source: WARN,
  unconfirmed: BAD,
  live: "bg-violet-50 text-violet-800 ring-violet-600/20",
  test: "bg-amber-50 text-amber-900 ring-amber-600/25",
  owner: "bg-brand-50 text-brand-900 ring-brand-600/20",
  admin: "bg-slate-900 text-white ring-slate-900",
};

export function Badge({ value, label }: { value: string; label?: string }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[value] ?? NEUTRAL}`}
    >
      {label ?? value.replaceAll("_", " ")}
    </span>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
      <p className="font-medium text-slate-900">{title}</p>
      {children && <div className="mx-auto mt-2 max-w-prose text-sm text-slate-600">{children}</div>}
      {action && <div className="mt-4 flex justify-center">{action}</div>}
    </div>
  );
}

/** A table that scrolls sideways on a phone instead of breaking the layout. */
export function TableWrap({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <div
      data-scrolls
      className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm"
      {...(label ? { role: "region", "aria-label": label, tabIndex: 0 } : {})}
    >
      {children}
    </div>
  );
}

export function Percent({ value }: { value: number | null }) {
  return <span className="tabular-nums">{value === null ? "—" : percentText(value)}</span>;
}

/** An instant in UTC; `missing` says what no instant means (never used, say). */
export function Time({
  value,
  seconds = false,
  missing = "—",
}: {
  value: Date | string | null | undefined;
  seconds?: boolean;
  missing?: string;
}) {
  if (!value) return <span className="text-slate-500">{missing}</span>;
  const date = typeof value === "string" ? new Date(value) : value;
  const iso = date.toISOString();
  return (
    <time dateTime={iso} title={iso} className="whitespace-nowrap tabular-nums">
      {iso.slice(0, 10)} {iso.slice(11, seconds ? 19 : 16)} UTC
    </time>
  );
}

export function Missing({ children = "—" }: { children?: ReactNode }) {
  return <span className="text-slate-500">{children}</span>;
}

export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      data-testid="form-error"
      className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      {message}
    </p>
  );
}

/** An edit form's answer in place: "Saved." once it went through, or the refusal. */
export function SavedOrError({ state, className }: { state: { error?: string } | undefined; className: string }) {
  return (
    <div role="status" className={`text-sm ${className}`}>
      {state && !state.error && <p className="text-emerald-800">Saved.</p>}
      <FormError message={state?.error} />
    </div>
  );
}

/** Text from the OpenAPI document with `code` spans, rendered as code; `links` turns known ones into links. */
export function Rich({ text, links = {} }: { text: string; links?: Record<string, string> }) {
  return (
    <>
      {text.split(/(`[^`]+`)/g).map((part, i) => {
        if (!(part.startsWith("`") && part.endsWith("`"))) return part;
        const code = part.slice(1, -1);
        return links[code] ? (
          <a
            key={i}
            href={links[code]}
            className="code-inline underline decoration-slate-400 underline-offset-2 hover:decoration-brand-600"
          >
            {code}
          </a>
        ) : (
          <code key={i} className="code-inline">
            {code}
          </code>
        );
      })}
    </>
  );
}

export function CodeBlock({ children, label }: { children: string; label?: string }) {
  return (
    <pre
      data-scrolls
      {...(label ? { role: "region", "aria-label": label } : {})}
      tabIndex={0}
      className="overflow-x-auto rounded-lg bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100"
    >
      {children}
    </pre>
  );
}

/** JSON text indented for reading; any other text as it is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
