import Link from "next/link";
import { NavLinks } from "../_components/nav-links";

// Public: a partner's engineers can read the docs before they have an account.
const NAV = [
  ["/docs", "Integration guide"],
  ["/docs/api", "API reference"],
  ["/docs/errors", "Errors"],
] as const;

export default function DocsLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 pt-3 sm:pb-3">
          <Link href="/docs" className="flex items-center gap-2 text-lg font-semibold tracking-tight text-brand-700">
            <span aria-hidden="true" className="grid size-7 place-items-center rounded-md bg-brand-700 text-sm text-white">F</span>
            Finca <span className="font-normal text-slate-600">docs</span>
          </Link>
          <div className="order-3 w-full sm:order-none sm:w-auto">
            <NavLinks links={NAV} label="Documentation" />
          </div>
          <div className="ml-auto flex items-center gap-3 text-sm">
            <a className="link hidden sm:inline" href="/api/v1/partner-api/openapi.json">openapi.json</a>
            <Link className="btn-secondary btn-sm" href="/dashboard">Portal</Link>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:py-8">{children}</main>
    </div>
  );
}
