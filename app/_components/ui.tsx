// Small presentational pieces shared by the portal and the admin console.
import type { ReactNode } from "react";

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      </div>
      {actions}
    </div>
  );
}

export function Card({ title, children, className = "" }: { title?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5 ${className}`}>
      {title && <h2 className="mb-3 text-base font-semibold text-slate-900">{title}</h2>}
      {children}
    </section>
  );
}

const TONES: Record<string, string> = {
  enriched: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  completed: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  succeeded: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  found: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  enriching: "bg-sky-50 text-sky-800 ring-sky-200",
  pending: "bg-sky-50 text-sky-800 ring-sky-200",
  partially_enriched: "bg-amber-50 text-amber-900 ring-amber-200",
  not_found: "bg-slate-100 text-slate-700 ring-slate-300",
  failed: "bg-red-50 text-red-800 ring-red-200",
  revoked: "bg-red-50 text-red-800 ring-red-200",
  disabled: "bg-red-50 text-red-800 ring-red-200",
  live: "bg-violet-50 text-violet-800 ring-violet-200",
  test: "bg-amber-50 text-amber-900 ring-amber-200",
};

export function Badge({ value, label }: { value: string; label?: string }) {
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[value] ?? "bg-slate-100 text-slate-700 ring-slate-300"}`}>{label ?? value.replaceAll("_", " ")}</span>;
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
      <p className="font-medium text-slate-900">{title}</p>
      {children && <div className="mt-2 text-sm text-slate-600">{children}</div>}
    </div>
  );
}

/** Horizontal bars: accessible as a list with values, no chart library. */
export function Bars({ items, label }: { items: { label: string; value: number; tone?: string }[]; label: string }) {
  const max = Math.max(1, ...items.map((i) => i.value));
  return (
    <ul aria-label={label} className="space-y-2">
      {items.map((i) => (
        <li key={i.label} className="grid grid-cols-[8rem_1fr_3rem] items-center gap-2 text-sm">
          <span className="truncate text-slate-700">{i.label}</span>
          <span className="h-2.5 rounded-full bg-slate-100">
            <span className={`block h-2.5 rounded-full ${i.tone ?? "bg-brand-600"}`} style={{ width: `${(i.value / max) * 100}%` }} />
          </span>
          <span className="text-right tabular-nums text-slate-900">{i.value}</span>
        </li>
      ))}
    </ul>
  );
}

export function Percent({ value }: { value: number | null }) {
  return <span className="tabular-nums">{value === null ? "—" : `${Math.round(value * 100)} %`}</span>;
}

export function Time({ value }: { value: Date | string | null | undefined }) {
  if (!value) return <span className="text-slate-400">—</span>;
  const date = typeof value === "string" ? new Date(value) : value;
  return <time dateTime={date.toISOString()}>{date.toISOString().replace("T", " ").slice(0, 19)} UTC</time>;
}

export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  );
}
