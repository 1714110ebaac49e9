import Link from "next/link";
import { requirePartner } from "@/lib/auth/session";
import { getPartner } from "@/lib/partners";
import { signOutAction, switchMode } from "./actions";

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
      {mode === "test" && <div className="bg-amber-100 px-4 py-1 text-center text-xs font-medium text-amber-900">Test mode — sandbox registers, test data only</div>}
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <Link href="/dashboard" className="text-lg font-semibold text-brand-700">Finca</Link>
          <nav aria-label="Main" className="order-3 flex w-full gap-1 overflow-x-auto sm:order-none sm:w-auto">
            {NAV.map(([href, label]) => (
              <Link key={href} href={href} className="whitespace-nowrap rounded-md px-2.5 py-1.5 text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-900">
                {label}
              </Link>
            ))}
          </nav>
          <div className="ml-auto flex items-center gap-3">
            <form action={switchMode} className="flex items-center gap-1" aria-label="Switch between test and live">
              {(["test", "live"] as const).map((m) => (
                <button key={m} name="mode" value={m} aria-pressed={mode === m} className={`rounded-md px-2.5 py-1 text-xs font-semibold uppercase ${mode === m ? (m === "live" ? "bg-violet-700 text-white" : "bg-amber-500 text-white") : "bg-slate-100 text-slate-700"}`}>
                  {m}
                </button>
              ))}
            </form>
            <span className="hidden text-sm text-slate-600 md:inline" title={user.email}>{partner?.name}</span>
            <form action={signOutAction}>
              <button className="text-sm text-slate-700 underline hover:text-slate-900">Sign out</button>
            </form>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
    </div>
  );
}
