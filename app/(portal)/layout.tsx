import Link from "next/link";
import { requirePartner } from "@/lib/auth/session";
import { getPartner } from "@/lib/partners";
import { NavLinks } from "../_components/nav-links";
import { signOutAction } from "./actions";
import { ModeSwitch } from "./forms";

const NAV = [
  ["/dashboard", "Overview"],
  ["/properties", "Properties"],
  ["/keys", "API keys"],
  ["/webhooks", "Webhooks"],
  ["/team", "Team"],
  ["/docs", "Docs"],
] as const;

export default async function PortalLayout({ children }: { children: React.ReactNode }) {
  const { app, user, mode, partnerId } = await requirePartner();
  const partner = await getPartner(app.db, partnerId);
  return (
    <div className="min-h-screen">
      {mode === "test" && (
        <p className="bg-amber-100 px-4 py-1 text-center text-xs font-medium text-amber-950">
          Test mode: sandbox registers and test data only. Switch to live to see production data.
        </p>
      )}
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 pt-3 sm:pb-3">
          <Link href="/dashboard" className="flex items-center gap-2 text-lg font-semibold tracking-tight text-brand-700">
            <span aria-hidden="true" className="grid size-7 place-items-center rounded-md bg-brand-700 text-sm text-white">F</span>
            Finca
          </Link>
          <div className="order-3 w-full sm:order-none sm:w-auto">
            <NavLinks links={NAV} label="Main" />
          </div>
          <div className="ml-auto flex items-center gap-3">
            <ModeSwitch mode={mode} />
            <div className="hidden text-right leading-tight md:block">
              <p className="text-sm font-medium text-slate-900">{partner?.name}</p>
              <p className="text-xs text-slate-600">{user.email}</p>
            </div>
            <form action={signOutAction}>
              <button className="rounded-md px-2 py-1 text-sm font-medium text-slate-700 underline-offset-2 hover:text-slate-950 hover:underline">Sign out</button>
            </form>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:py-8">{children}</main>
    </div>
  );
}
