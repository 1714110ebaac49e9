import Link from "next/link";
import { SiteFrame } from "../_components/site-frame";

// Public: a partner's engineers can read the docs before they have an account.
const NAV = [
  ["/docs", "Integration guide"],
  ["/docs/portfolios", "Portfolios"],
  ["/docs/api", "API reference"],
  ["/docs/errors", "Errors"],
] as const;

export default function DocsLayout({ children }: { children: React.ReactNode }) {
  return (
    <SiteFrame
      home="/docs"
      badge={<span className="font-normal text-slate-600">docs</span>}
      nav={NAV}
      navLabel="Documentation"
      right={
        <>
          <a className="link hidden sm:inline" href="/api/v1/partner-api/openapi.json">
            openapi.json
          </a>
          <Link className="btn-secondary btn-sm" href="/dashboard">
            Portal
          </Link>
        </>
      }
    >
      {children}
    </SiteFrame>
  );
}
