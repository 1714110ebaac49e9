import { requireAdmin } from "@/lib/auth/session";
import { allKeys } from "@/lib/portal/queries";
import { ConfirmSubmit } from "../../_components/confirm-submit";
import { Badge, EmptyState, PageHeader, Time } from "../../_components/ui";
import { adminRevokeKey } from "../actions";

export const metadata = { title: "All API keys" };

export default async function AdminKeys({ searchParams }: { searchParams: Promise<{ q?: string }> }) {
  const { app } = await requireAdmin();
  const { q } = await searchParams;
  const keys = await allKeys(app.db, q?.trim() || undefined);
  return (
    <>
      <PageHeader title="All API keys" description="Search by the visible start a partner quotes (e.g. finca_live_AbC1)." />
      <form role="search" className="mb-4 flex gap-2">
        <label htmlFor="q" className="sr-only">Visible start</label>
        <input id="q" name="q" defaultValue={q} className="input max-w-sm font-mono" placeholder="finca_live_…" />
        <button className="btn-secondary">Search</button>
      </form>
      {keys.length ? (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="table">
            <thead><tr><th>Key</th><th>Partner</th><th>Name</th><th>Mode</th><th>Last used</th><th><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id}>
                  <td className="font-mono">{k.visibleStart}…</td><td>{k.partner}</td><td>{k.name}</td><td><Badge value={k.mode} /></td><td><Time value={k.lastUsedAt} /></td>
                  <td className="text-right">
                    {k.revokedAt ? <Badge value="revoked" /> : (
                      <form action={adminRevokeKey}><input type="hidden" name="id" value={k.id} /><ConfirmSubmit message={`Revoke ${k.visibleStart}… of ${k.partner}?`}>Revoke</ConfirmSubmit></form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <EmptyState title="No keys match" />
      )}
    </>
  );
}
