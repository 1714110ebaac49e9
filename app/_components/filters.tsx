import Link from "next/link";
import { Field } from "./field";

/** A from–to pair of whole UTC days, as the list pages filter by. */
export function DayRange({
  from,
  to,
  fromLabel = "From",
  className,
}: {
  from?: string;
  to?: string;
  fromLabel?: string;
  className?: string;
}) {
  return (
    <div className={`grid grid-cols-2 gap-3 ${className ?? ""}`}>
      <div>
        <label htmlFor="from" className="label">
          {fromLabel}
        </label>
        <input id="from" name="from" type="date" defaultValue={from} className="input" />
      </div>
      <div>
        <label htmlFor="to" className="label">
          to
        </label>
        <input id="to" name="to" type="date" defaultValue={to} className="input" />
      </div>
    </div>
  );
}

/** Filter, and Clear back to `clearHref` once anything is filtered. */
export function FilterActions({
  filtered,
  clearHref,
  className,
}: {
  filtered: boolean;
  clearHref: string;
  className?: string;
}) {
  return (
    <div className={`flex gap-2 ${className ?? ""}`}>
      <button type="submit" className="btn-secondary flex-1 lg:flex-none">
        Filter
      </button>
      {filtered && (
        <Link href={clearHref} className="btn-secondary flex-1 lg:flex-none">
          Clear
        </Link>
      )}
    </div>
  );
}

/** A list's filters, as a search form; keyed by the query so that other filters (or none) reset its fields. */
export function FilterForm({
  label,
  query,
  className,
  children,
}: {
  label: string;
  query: string;
  className: string;
  children: React.ReactNode;
}) {
  return (
    <form
      key={query}
      className={`mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm ${className}`}
      role="search"
      aria-label={label}
    >
      {children}
    </form>
  );
}

/** One choice among `options` (value, text), or any ("" ): a list's filter. */
export function SelectFilter({
  name,
  label,
  value,
  any,
  options,
}: {
  name: string;
  label: string;
  value?: string;
  any: string;
  options: readonly (readonly [string, string])[];
}) {
  return (
    <div>
      <label htmlFor={name} className="label">
        {label}
      </label>
      <select id={name} name={name} defaultValue={value ?? ""} className="input">
        <option value="">{any}</option>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A text search field of a list's filters. */
export function SearchFilter({
  name = "q",
  label,
  value,
  placeholder,
  className,
  mono = false,
}: {
  name?: string;
  label: string;
  value?: string;
  placeholder: string;
  className?: string;
  mono?: boolean;
}) {
  return (
    <Field
      id={name}
      label={label}
      type="search"
      defaultValue={value}
      placeholder={placeholder}
      className={className}
      inputClassName={mono ? "input font-mono" : "input"}
    />
  );
}

/**
 * The console's look-up: one field (labelled for screen readers), Find, and Clear back to
 * `clearHref` once something is looked up; `kept` rides along (a partner the list is narrowed to).
 */
export function LookupForm({
  label,
  field,
  value,
  placeholder,
  clearHref,
  kept = {},
  button = "Find",
  required = false,
  className = "max-w-lg",
}: {
  label: string;
  field: string;
  value?: string;
  placeholder: string;
  clearHref: string;
  kept?: Record<string, string | undefined>;
  button?: string;
  required?: boolean;
  className?: string;
}) {
  const hidden = Object.entries(kept).filter((entry): entry is [string, string] => Boolean(entry[1]));
  return (
    <form
      key={[value, ...hidden.map(([, v]) => v)].join(" ")}
      role="search"
      aria-label={label}
      className={`mb-4 flex flex-wrap gap-2 ${className}`}
    >
      <label htmlFor="q" className="sr-only">
        {field}
      </label>
      <input
        id="q"
        name="q"
        type="search"
        defaultValue={value}
        className="input min-w-0 flex-1 font-mono"
        placeholder={placeholder}
        required={required}
      />
      {hidden.map(([name, v]) => (
        <input key={name} type="hidden" name={name} value={v} />
      ))}
      <button type="submit" className="btn-secondary">
        {button}
      </button>
      {(value || hidden.length > 0) && (
        <Link className="btn-secondary" href={clearHref}>
          Clear
        </Link>
      )}
    </form>
  );
}
