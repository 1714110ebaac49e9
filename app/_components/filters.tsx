import Link from "next/link";

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
    <div className={className}>
      <label htmlFor={name} className="label">
        {label}
      </label>
      <input
        id={name}
        name={name}
        type="search"
        defaultValue={value}
        className={mono ? "input font-mono" : "input"}
        placeholder={placeholder}
      />
    </div>
  );
}
