// A page in place of the one asked for (403, 404): its status, what happened, and where to go.
import Link from "next/link";
import type { ReactNode } from "react";

export function StatusPage({
  status,
  title,
  children,
  main: [mainHref, main],
  other: [otherHref, other],
}: {
  status: number;
  title: string;
  children: ReactNode;
  /** [href, text]: the way on. */
  main: [string, string];
  other: [string, string];
}) {
  return (
    <main id="main" className="mx-auto my-16 max-w-lg px-4 text-center">
      <p className="text-sm font-semibold text-brand-700">{status}</p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">{children}</p>
      <div className="mt-6 flex justify-center gap-2">
        <Link className="btn" href={mainHref}>
          {main}
        </Link>
        <Link className="btn-secondary" href={otherHref}>
          {other}
        </Link>
      </div>
    </main>
  );
}
