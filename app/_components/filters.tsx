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
