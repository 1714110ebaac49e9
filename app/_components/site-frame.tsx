import Link from "next/link";
import { NavLinks } from "./nav-links";

/** The frame of every signed-in or docs page: the brand, its navigation, what goes on the right, the page. */
export function SiteFrame({
  home,
  badge,
  nav,
  navLabel,
  dark = false,
  banner,
  right,
  children,
}: {
  home: string;
  badge?: React.ReactNode;
  nav: readonly (readonly [string, string])[];
  navLabel: string;
  dark?: boolean;
  banner?: React.ReactNode;
  right: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="min-h-screen">
      {banner}
      <header
        className={dark ? "border-b border-slate-800 bg-slate-900 text-white" : "border-b border-slate-200 bg-white"}
      >
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 pt-3 sm:pb-3">
          <Link
            href={home}
            className={`flex items-center gap-2 text-lg font-semibold tracking-tight ${dark ? "" : "text-brand-700"}`}
          >
            <span
              aria-hidden="true"
              className={`grid size-7 place-items-center rounded-md text-sm ${dark ? "bg-white text-slate-900" : "bg-brand-700 text-white"}`}
            >
              F
            </span>
            Finca{badge && <> {badge}</>}
          </Link>
          <div className="order-3 w-full sm:order-none sm:w-auto">
            <NavLinks links={nav} label={navLabel} tone={dark ? "dark" : "light"} />
          </div>
          <div className="ml-auto flex items-center gap-3 text-sm">{right}</div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
        {children}
      </main>
    </div>
  );
}
