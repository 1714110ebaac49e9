import { requireAdmin } from "@/lib/auth/session";
import { listPartners } from "@/lib/partners";
import { allUsers, rateLimitUsage } from "@/lib/portal/queries";
import { Badge, Card, EmptyState, PageHeader, Time } from "../_components/ui";

export const metadata = { title: "Admin" };

export default async function Admin() {
  const { app } = await requireAdmin();
  const [partners, users, usage] = await Promise.all([listPartners(app.db), allUsers(app.db), rateLimitUsage(app.db, app.config.RATE_LIMIT_WINDOW_SECONDS)]);
  const limit = app.config.RATE_LIMIT_WRITES;
  return (
    <>
      <PageHeader title="Partners and usage" />
      <Card title={`Rate limit now (${limit} writes / ${app.config.RATE_LIMIT_WINDOW_SECONDS} s)`} className="mb-6">
        {usage.filter((u) => u.used > 0).length ? (
          <table className="table">
            <thead><tr><th>Partner</th><th>Mode</th><th>Used</th><th>State</th></tr></thead>
            <tbody>
              {usage.filter((u) => u.used > 0).map((u) => (
                <tr key={`${u.partner}-${u.mode}`}>
                  <td>{u.partner}</td><td><Badge value={u.mode} /></td><td className="tabular-nums">{u.used} / {limit}</td>
                  <td>{u.used >= limit ? <Badge value="failed" label="at the limit" /> : u.used >= limit * 0.8 ? <Badge value="partially_enriched" label="near the limit" /> : <Badge value="succeeded" label="ok" />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="text-sm text-slate-600">No writes in the current window.</p>
        )}
      </Card>
      <Card title={`Partners (${partners.length})`} className="mb-6">
        {partners.length ? (
          <div className="overflow-x-auto">
            <table className="table">
              <thead><tr><th>Name</th><th>Users</th><th>Active keys</th><th>Properties</th><th className="hidden sm:table-cell">Since</th></tr></thead>
              <tbody>
                {partners.map((p) => (
                  <tr key={p.id}><td>{p.name}</td><td>{p.users}</td><td>{p.activeKeys}</td><td>{p.properties}</td><td className="hidden sm:table-cell"><Time value={p.createdAt} /></td></tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <EmptyState title="No partners yet" />
        )}
      </Card>
      <Card title={`Users (${users.length})`}>
        <div className="overflow-x-auto">
          <table className="table">
            <thead><tr><th>Email</th><th>Role</th><th>Partner</th><th className="hidden sm:table-cell">Since</th></tr></thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}><td>{u.email}</td><td><Badge value={u.role} /></td><td>{u.partner ?? "—"}</td><td className="hidden sm:table-cell"><Time value={u.createdAt} /></td></tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </>
  );
}
