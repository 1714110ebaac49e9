// A secret shown once (a new key, an endpoint's signing secret, an invitation link), to copy.
import { CopyButton } from "./copy-button";

export function Secret({ label, value, note }: { label: string; value: string; note: React.ReactNode }) {
  return (
    <div role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 p-3">
      <p className="text-sm font-medium text-emerald-900">{label}</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code
          data-testid="secret-value"
          className="min-w-0 break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900 ring-1 ring-emerald-200"
        >
          {value}
        </code>
        <CopyButton value={value} />
      </div>
      <p className="mt-2 text-xs text-emerald-900">{note}</p>
    </div>
  );
}
