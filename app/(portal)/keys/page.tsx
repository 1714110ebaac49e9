import { requirePartner } from "@/lib/auth/session";
import { listApiKeys } from "@/lib/api-keys";
import { ConfirmSubmit } from "../../_components/confirm-submit";
import { Badge, Card, EmptyState, PageHeader, Time } from "../../_components/ui";
import { revokeKeyAction } from "../actions";
import { CreateKeyForm } from "../forms";

export const metadata = { title: "API keys" };

export default async function Keys() {
  const { app, partnerId, mode } = await requirePartner();
  const keys = await listApiKeys(app.db, { partnerId });
  return (
    <>
      <PageHeader title="API keys" description="Test keys use the sandbox registers and see only test data; live keys the real registers and live data." />
      <Card title="Create a key" className="mb-6">
        <CreateKeyForm defaultMode={mode} />
      </Card>
      {keys.length ? (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="table">
            <thead><tr><th>Key</th><th>Name</th><th>Mode</th><th className="hidden sm:table-cell">Created</th><th>Last used</th><th><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id}>
                  <td className="font-mono">{k.visibleStart}…</td>
                  <td>{k.name}</td>
                  <td><Badge value={k.mode} /></td>
                  <td className="hidden sm:table-cell"><Time value={k.createdAt} /></td>
                  <td><Time value={k.lastUsedAt} /></td>
                  <td className="text-right">
                    {k.revokedAt ? (
                      <Badge value="revoked" />
                    ) : (
                      <form action={revokeKeyAction}>
                        <input type="hidden" name="id" value={k.id} />
                        <ConfirmSubmit message={`Revoke ${k.visibleStart}…? Requests with it will be refused at once.`}>Revoke</ConfirmSubmit>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <EmptyState title="No API keys yet">Create a test key to try the API against the sandbox.</EmptyState>
      )}
    </>
  );
}
