"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Re-renders the server page every few seconds while something is still in progress (paused while the tab is hidden). */
export function AutoRefresh({
  active,
  intervalMs = 2000,
  message,
}: {
  active: boolean;
  intervalMs?: number;
  message: string;
}) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, intervalMs);
    return () => clearInterval(id);
  }, [active, intervalMs, router]);
  if (!active) return null;
  return (
    <p
      className="inline-flex items-center gap-2 rounded-full bg-sky-50 px-3 py-1 text-xs font-medium text-sky-800 ring-1 ring-inset ring-sky-600/20"
      aria-live="polite"
    >
      <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-sky-500" />
      {message}
    </p>
  );
}
