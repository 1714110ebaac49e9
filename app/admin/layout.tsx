import Link from "next/link";
import { requireOperator } from "@/server/session";
import { SiteFrame } from "../_components/site-frame";
import { SignOut } from "../_account/sign-out";

const NAV = [
  ["/admin", "Overview"],
  ["/admin/users", "Partners & users"],
  ["/admin/keys", "API keys"],
  ["/admin/webhooks", "Webhooks"],
  ["/admin/requests", "Requests"],
  ["/admin/activity", "Activity"],
  ["/admin/outbox", "Outbox"],
  ["/admin/registers", "Registers"],
] as const;

export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const { user } = await requireOperator();
  return (
    <SiteFrame
      home="/admin"
      dark
      badge={
        <span className="rounded bg-slate-700 px-1.5 py-0.5 text-xs font-medium uppercase tracking-wide">admin</span>
      }
      nav={NAV}
      navLabel="Admin"
      right={
        <>
          <Link href="/admin/account" className="hidden text-slate-300 underline-offset-2 hover:underline sm:inline">
            {user.email}
          </Link>
          <SignOut className="text-slate-100" />
        </>
      }
    >
      {children}
    </SiteFrame>
  );
}
