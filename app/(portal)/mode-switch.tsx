"use client";

// The portal's mode switch, in the layout of every page.
import { usePathname } from "next/navigation";
import { switchMode } from "./actions";

/**
 * Test and live. Without live access there is no live mode: "live" leads to the request form on the
 * API keys page (`request`), or is shown unavailable to a role that cannot see that page.
 */
export function ModeSwitch({ mode, live }: { mode: "test" | "live"; live: "granted" | "request" | "unavailable" }) {
  const pathname = usePathname();
  const tab = "rounded-md px-2.5 py-1 text-xs font-semibold uppercase tracking-wide";
  return (
    // The group is a div inside the form: a form may not take role="group" (axe aria-allowed-role).
    <form action={switchMode}>
      <input type="hidden" name="from" value={pathname} />
      <div role="group" aria-label="Data mode" className="inline-flex rounded-lg bg-slate-100 p-0.5">
        {(["test", "live"] as const).map((m) =>
          m === "live" && live !== "granted" ? (
            live === "request" ? (
              <a
                key={m}
                href="/keys#live-access"
                aria-label="live: request live access"
                className={`${tab} text-slate-700 hover:text-slate-950`}
              >
                live
              </a>
            ) : (
              <span key={m} title="Your organisation has no live access yet" className={`${tab} text-slate-500`}>
                live<span className="sr-only">: not available, your organisation has no live access yet</span>
              </span>
            )
          ) : (
            <button
              type="submit"
              key={m}
              name="mode"
              value={m}
              aria-pressed={mode === m}
              className={`rounded-md px-2.5 py-1 text-xs font-semibold uppercase tracking-wide ${
                mode === m
                  ? m === "live"
                    ? "bg-violet-700 text-white shadow-sm"
                    : "bg-amber-500 text-slate-950 shadow-sm"
                  : "text-slate-700 hover:text-slate-950"
              }`}
            >
              {m}
            </button>
          ),
        )}
      </div>
    </form>
  );
}
