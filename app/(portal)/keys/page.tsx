import Link from "next/link";
import { requirePartner } from "@/server/session";
import { listApiKeys } from "@/lib/api-keys";
import { ActionButton } from "../../_components/action-button";
import { Badge, Card, EmptyState, PageHeader, TableWrap, Time } from "../../_components/ui";
import { revokeKeyAction } from "../actions";
import { CreateKeyForm } from "../forms";

export const metadata = { title: "API keys" };

export default async function Keys() {
  const { app, partnerId, mode } = await requirePartner();
  const keys = await listApiKeys(app.db, { partnerId });
  const active = keys.filter((k) => !k.revokedAt);
  const revoked = keys.filter((k) => k.revokedAt);
  return (
    <>
      <PageHeader
        title="API keys"
        description={<>Test keys use the sandbox registers and see only test data; live keys the real registers and live data. <Link className="link" href="/docs#authenticate">How to authenticate</Link></>}
      />
      <Card title="Create a key" className="mb-6">
        <CreateKeyForm defaultMode={mode} />
      </Card>
      <h2 className="mb-3 text-base font-semibold text-slate-900">Active keys</h2>
      {active.length ? (
        <TableWrap label="Active API keys">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Name</th>
                <th scope="col">Mode</th>
                <th scope="col" className="hidden sm:table-cell">Created</th>
                <th scope="col">Last used</th>
                <th scope="col"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {active.map((k) => (
                <tr key={k.id}>
                  <td className="whitespace-nowrap font-mono text-xs">{k.visibleStart}…</td>
                  <td className="min-w-32">{k.name}</td>
                  <td><Badge value={k.mode} /></td>
                  <td className="hidden sm:table-cell"><Time value={k.createdAt} /></td>
                  <td>{k.lastUsedAt ? <Time value={k.lastUsedAt} /> : <span className="text-slate-600">never</span>}</td>
                  <td className="text-right">
                    <ActionButton action={revokeKeyAction} id={k.id} className="btn-danger btn-sm" pendingText="Revoking…" confirm={`Revoke ${k.visibleStart}… (${k.name})? Requests with it are refused at once. This cannot be undone.`}>Revoke</ActionButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : (
        <EmptyState title="No active keys">Create a test key to try the API against the sandbox registers.</EmptyState>
      )}
      {revoked.length > 0 && (
        <details className="mt-6">
          <summary className="cursor-pointer text-sm font-medium text-slate-700">Revoked keys ({revoked.length})</summary>
          <div className="mt-3">
            <TableWrap label="Revoked API keys">
              <table className="table">
                <thead>
                  <tr><th scope="col">Key</th><th scope="col">Name</th><th scope="col">Mode</th><th scope="col">Revoked</th><th scope="col" className="hidden sm:table-cell">Last used</th></tr>
                </thead>
                <tbody>
                  {revoked.map((k) => (
                    <tr key={k.id} className="text-slate-600">
                      <td className="whitespace-nowrap font-mono text-xs">{k.visibleStart}…</td>
                      <td>{k.name}</td>
                      <td><Badge value={k.mode} /></td>
                      <td><Time value={k.revokedAt} /></td>
                      <td className="hidden sm:table-cell"><Time value={k.lastUsedAt} /></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          </div>
        </details>
      )}
    </>
  );
}
