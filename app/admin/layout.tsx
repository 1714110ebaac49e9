import Link from "next/link";
import { requireOperator } from "@/server/session";
import { SiteFrame } from "../_components/site-frame";
import { signOutAction } from "../_account/actions";

const NAV = [
  ["/admin", "Overview"],
  ["/admin/users", "Partners & users"],
  ["/admin/keys", "API keys"],
  ["/admin/webhooks", "Webhooks"],
  ["/admin/requests", "Requests"],
  ["/admin/activity", "Activity"],
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
          <form action={signOutAction}>
            <button
              type="submit"
              className="rounded-md px-2 py-1 font-medium text-slate-100 underline-offset-2 hover:underline"
            >
              Sign out
            </button>
          </form>
        </>
      }
    >
      {children}
    </SiteFrame>
  );
}
