import Link from "next/link";
import { requireAdmin } from "@/lib/auth/session";
import { NavLinks } from "../_components/nav-links";
import { signOutAction } from "../(portal)/actions";

const NAV = [
  ["/admin", "Overview"],
  ["/admin/users", "Partners & users"],
  ["/admin/keys", "API keys"],
  ["/admin/webhooks", "Webhooks"],
] as const;

export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const { user } = await requireAdmin();
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-800 bg-slate-900 text-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 pt-3 sm:pb-3">
          <Link href="/admin" className="flex items-center gap-2 text-lg font-semibold tracking-tight">
            <span aria-hidden="true" className="grid size-7 place-items-center rounded-md bg-white text-sm text-slate-900">F</span>
            Finca <span className="rounded bg-slate-700 px-1.5 py-0.5 text-xs font-medium uppercase tracking-wide">admin</span>
          </Link>
          <div className="order-3 w-full sm:order-none sm:w-auto">
            <NavLinks links={NAV} label="Admin" tone="dark" />
          </div>
          <div className="ml-auto flex items-center gap-3 text-sm">
            <span className="hidden text-slate-300 sm:inline">{user.email}</span>
            <form action={signOutAction}><button className="rounded-md px-2 py-1 font-medium text-slate-100 underline-offset-2 hover:underline">Sign out</button></form>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:py-8">{children}</main>
    </div>
  );
}
