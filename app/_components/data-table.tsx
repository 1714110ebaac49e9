// The one table of the portal, the console and the docs: a list of rows as columns, scrolling
// sideways on a phone, with the columns that matter least left out on narrow screens.
import Link from "next/link";
import type { ReactNode } from "react";
import { ActionButton, type ButtonAction } from "./action-button";
import { TableWrap } from "./ui";

/** From which width a column shows (narrower screens leave it out). */
const SHOWN_FROM = { sm: "hidden sm:table-cell", md: "hidden md:table-cell", lg: "hidden lg:table-cell" } as const;

export interface Column<T> {
  /** The header; null for the column of a row's buttons (named "Actions" for screen readers). */
  header: ReactNode | null;
  cell: (row: T) => ReactNode;
  from?: keyof typeof SHOWN_FROM;
  /** Classes of the column's cells. */
  className?: string;
  /** The cells' test id. */
  testId?: string;
  /** Where a cell links to (none: plain text). */
  href?: (row: T) => string | null | undefined;
}

/** A cell's content, as a link where its column gives one. */
function Cell<T>({ column, row }: { column: Column<T>; row: T }) {
  const href = column.href?.(row);
  return href ? (
    <Link className="link" href={href}>
      {column.cell(row)}
    </Link>
  ) : (
    column.cell(row)
  );
}

/** `columns` may hold `false` (or nothing) for a column the reader is not shown (a role without its buttons, say). */
export function DataTable<T>({
  label,
  rows,
  columns,
  rowKey,
  rowClassName,
  rowTestId,
  testId,
  footer,
}: {
  /** Names the scrolling region. */
  label: string;
  rows: readonly T[];
  columns: readonly (Column<T> | false | undefined)[];
  rowKey: (row: T) => string | number;
  rowClassName?: (row: T) => string | undefined;
  rowTestId?: string;
  testId?: string;
  footer?: ReactNode;
}) {
  const shown = columns.filter((column): column is Column<T> => !!column);
  const classes = (column: Column<T>, own?: string) =>
    [column.from && SHOWN_FROM[column.from], own].filter(Boolean).join(" ") || undefined;
  return (
    <TableWrap label={label}>
      <table className="table" data-testid={testId}>
        <thead>
          <tr>
            {shown.map((column, i) => (
              <th key={i} scope="col" className={classes(column)}>
                {column.header ?? <span className="sr-only">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={rowClassName?.(row)} data-testid={rowTestId}>
              {shown.map((column, i) => (
                <td key={i} className={classes(column, column.className)} data-testid={column.testId}>
                  <Cell column={column} row={row} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {footer}
    </TableWrap>
  );
}

/**
 * The column of a row's one button, posting the row's id to `action` (revoke, remove, replay...);
 * `shown` leaves the button out of some rows, `confirm` asks first.
 */
export function buttonColumn<T extends { id: string }>({
  action,
  label,
  pendingText,
  className = "btn-danger btn-sm",
  confirm,
  shown = () => true,
}: {
  action: ButtonAction;
  label: string;
  pendingText: string;
  className?: string;
  confirm?: (row: T) => string;
  shown?: (row: T) => boolean;
}): Column<T> {
  return {
    header: null,
    className: "text-right",
    cell: (row) =>
      shown(row) && (
        <ActionButton
          action={action}
          id={row.id}
          className={className}
          pendingText={pendingText}
          confirm={confirm?.(row)}
        >
          {label}
        </ActionButton>
      ),
  };
}

/** A list's pages under its table: back to the first (or newest) page, on to the next. */
export function Pager({
  first,
  next,
  labels = ["First page", "Next page"],
}: {
  first?: string | false | null;
  next?: string | false | null;
  labels?: [string, string];
}) {
  if (!first && !next) return null;
  return (
    <nav aria-label="Pages" className="flex justify-between gap-2 border-t border-slate-100 p-3">
      {first ? (
        <Link className="btn-secondary" href={first}>
          {labels[0]}
        </Link>
      ) : (
        <span />
      )}
      {next && (
        <Link className="btn-secondary" href={next}>
          {labels[1]}
        </Link>
      )}
    </nav>
  );
}
