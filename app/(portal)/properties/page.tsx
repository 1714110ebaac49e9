import Link from "next/link";
import { requirePartner } from "@/lib/auth/session";
import { listProperties } from "@/lib/properties";
import { PROPERTY_STATUSES, type PropertyStatus } from "@/drizzle/schema";
import { Badge, Card, EmptyState, PageHeader, Time } from "../../_components/ui";
import { RegisterPropertyForm } from "../forms";

export const metadata = { title: "Properties" };

type Search = { q?: string; status?: string; from?: string; to?: string; after?: string };

export default async function Properties({ searchParams }: { searchParams: Promise<Search> }) {
  const { app, scope, mode } = await requirePartner();
  const s = await searchParams;
  const status = (PROPERTY_STATUSES as readonly string[]).includes(s.status ?? "") ? (s.status as PropertyStatus) : undefined;
  const date = (v?: string) => (v && !Number.isNaN(Date.parse(v)) ? new Date(v) : undefined);
  const to = date(s.to);
  const page = await listProperties(app.db, scope, {
    limit: 25,
    search: s.q?.trim() || undefined,
    status,
    createdFrom: date(s.from),
    createdTo: to ? new Date(to.getTime() + 86_400_000) : undefined,
    startingAfter: s.after && /^[0-9a-f-]{36}$/.test(s.after) ? s.after : undefined,
  });
  const next = new URLSearchParams({ ...(s.q ? { q: s.q } : {}), ...(status ? { status } : {}), ...(s.from ? { from: s.from } : {}), ...(s.to ? { to: s.to } : {}) });
  return (
    <>
      <PageHeader title="Properties" description={`Registered in ${mode} mode, newest first.`} />
      <Card title="Register a property" className="mb-6">
        <RegisterPropertyForm />
      </Card>
      <form className="mb-4 grid gap-2 sm:grid-cols-[2fr_1fr_1fr_1fr_auto] sm:items-end" role="search">
        <div>
          <label htmlFor="q" className="label">Search</label>
          <input id="q" name="q" defaultValue={s.q} className="input" placeholder="Reference, address or municipality" />
        </div>
        <div>
          <label htmlFor="status" className="label">Status</label>
          <select id="status" name="status" defaultValue={status ?? ""} className="input">
            <option value="">Any</option>
            {PROPERTY_STATUSES.map((st) => <option key={st} value={st}>{st.replaceAll("_", " ")}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="from" className="label">From</label>
          <input id="from" name="from" type="date" defaultValue={s.from} className="input" />
        </div>
        <div>
          <label htmlFor="to" className="label">To</label>
          <input id="to" name="to" type="date" defaultValue={s.to} className="input" />
        </div>
        <button className="btn-secondary">Filter</button>
      </form>
      {page && page.data.length ? (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="table">
            <thead><tr><th>Reference</th><th>Status</th><th className="hidden md:table-cell">Address</th><th className="hidden sm:table-cell">Municipality</th><th className="hidden lg:table-cell">Created</th></tr></thead>
            <tbody>
              {page.data.map((p) => (
                <tr key={p.property_id}>
                  <td><Link className="font-mono text-brand-700 underline" href={`/properties/${p.property_id}`}>{p.cadastral_reference}</Link></td>
                  <td><Badge value={p.status} /></td>
                  <td className="hidden md:table-cell">{p.address ?? <span className="text-slate-400">—</span>}</td>
                  <td className="hidden sm:table-cell">{p.municipality ?? <span className="text-slate-400">—</span>}</td>
                  <td className="hidden lg:table-cell"><Time value={p.created_at} /></td>
                </tr>
              ))}
            </tbody>
          </table>
          {page.has_more && (
            <div className="p-3 text-right">
              <Link className="btn-secondary" href={`/properties?${next}&after=${page.next_starting_after}`}>Next page</Link>
            </div>
          )}
        </div>
      ) : (
        <EmptyState title="No properties match">Register one above, or through the API with a {mode} key.</EmptyState>
      )}
    </>
  );
}
