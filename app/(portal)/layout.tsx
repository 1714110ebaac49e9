import Link from "next/link";
import { requirePartner } from "@/server/session";
import { can, type Permission } from "@/lib/domain";
import { getPartner } from "@/lib/partners";
import { SiteFrame } from "../_components/site-frame";
import { SignOut } from "../_account/sign-out";
import { LiveAccessNotice } from "./live-notice";
import { ModeSwitch } from "./mode-switch";

// Each entry with the permission its page needs (lib/domain/roles.ts), if any: a role without it
// is not shown the link (the page itself answers 403).
const NAV: [string, string, Permission?][] = [
  ["/dashboard", "Overview"],
  ["/properties", "Properties"],
  ["/portfolios", "Portfolios"],
  ["/keys", "API keys", "keys"],
  ["/webhooks", "Webhooks", "endpoints"],
  ["/logs", "Logs"],
  ["/team", "Team"],
  ["/docs", "Docs"],
];

export default async function PortalLayout({ children }: { children: React.ReactNode }) {
  const { app, user, mode, partnerId } = await requirePartner();
  const partner = await getPartner(app.db, partnerId);
  return (
    <SiteFrame
      home="/dashboard"
      nav={NAV.filter(([, , permission]) => !permission || can(user.role, permission, mode)).map(
        ([href, label]) => [href, label] as const,
      )}
      navLabel="Main"
      banner={
        mode === "test" && (
          <aside
            aria-label="Data mode"
            className="bg-amber-100 px-4 py-1 text-center text-xs font-medium text-amber-950"
          >
            Test mode: sandbox registers and test data only.{" "}
            {partner?.liveAccess === "approved"
              ? "Switch to live to see production data."
              : "Live mode opens once Finca approves your organisation's request for live access."}
          </aside>
        )
      }
      right={
        <>
          <ModeSwitch
            mode={mode}
            live={partner?.liveAccess === "approved" ? "granted" : can(user.role, "keys") ? "request" : "unavailable"}
          />
          <div className="hidden text-right leading-tight md:block">
            <p className="text-sm font-medium text-slate-900">{partner?.name}</p>
            <Link href="/account" className="text-xs text-slate-600 underline-offset-2 hover:underline">
              {user.email}
            </Link>
          </div>
          <SignOut className="text-sm text-slate-700 hover:text-slate-950" />
        </>
      }
    >
      {mode === "test" && <LiveAccessNotice partner={partner} keys={can(user.role, "keys")} />}
      {children}
    </SiteFrame>
  );
}
