"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Re-renders the server page while it is visible: every `intervalMs` while something is in progress
 * (`active`), and every `idleIntervalMs` on a list's first page (`watching`), so rows made elsewhere
 * (by the API, another tab, a worker) appear without a reload. Later pages stay still: their rows are
 * read by a cursor a refresh would not move.
 */
export function AutoRefresh({
  active,
  watching = false,
  intervalMs = 2000,
  idleIntervalMs = 5000,
  message = "",
}: {
  active: boolean;
  watching?: boolean;
  intervalMs?: number;
  idleIntervalMs?: number;
  message?: string;
}) {
  const router = useRouter();
  const every = active ? intervalMs : watching ? idleIntervalMs : 0;
  useEffect(() => {
    if (!every) return;
    const id = setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, every);
    return () => clearInterval(id);
  }, [every, router]);
  if (active)
    return (
      <p
        className="inline-flex items-center gap-2 rounded-full bg-sky-50 px-3 py-1 text-xs font-medium text-sky-800 ring-1 ring-inset ring-sky-600/20"
        aria-live="polite"
      >
        <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-sky-500" />
        {message}
      </p>
    );
  if (watching)
    return (
      <p className="inline-flex items-center gap-2 rounded-full bg-slate-50 px-3 py-1 text-xs font-medium text-slate-700 ring-1 ring-inset ring-slate-500/20">
        <span aria-hidden="true" className="size-2 rounded-full bg-emerald-500" />
        New rows appear by themselves
      </p>
    );
  return null;
}
