import Link from "next/link";
import { requireAdmin } from "@/lib/auth/session";
import { signOutAction } from "../(portal)/actions";

export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const { user } = await requireAdmin();
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-800 bg-slate-900 text-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <Link href="/admin" className="text-lg font-semibold">Finca admin</Link>
          <nav aria-label="Admin" className="flex gap-1 text-sm">
            {[["/admin", "Partners & usage"], ["/admin/keys", "API keys"], ["/admin/webhooks", "Webhooks"]].map(([href, label]) => (
              <Link key={href} href={href!} className="rounded-md px-2.5 py-1.5 hover:bg-slate-800">{label}</Link>
            ))}
          </nav>
          <div className="ml-auto flex items-center gap-3 text-sm">
            <span className="hidden sm:inline">{user.email}</span>
            <form action={signOutAction}><button className="underline">Sign out</button></form>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
    </div>
  );
}
