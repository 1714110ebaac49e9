import Link from "next/link";
import { requireOperator } from "@/server/session";
import { idParam, searchText, type RawParam } from "@/lib/portal/params";
import { allKeys } from "@/lib/portal/queries";
import { keyIsActive } from "@/lib/api-keys";
import { ActionButton } from "../../_components/action-button";
import { Badge, EmptyState, PageHeader, TableWrap, Time } from "../../_components/ui";
import { adminRevokeKey } from "../actions";

export const metadata = { title: "All API keys" };

export default async function AdminKeys({
  searchParams,
}: {
  searchParams: Promise<{ q?: RawParam; partner?: RawParam }>;
}) {
  const { app } = await requireOperator();
  const params = await searchParams;
  const q = searchText(params.q, 64);
  const partner = idParam(params.partner);
  const keys = await allKeys(app.db, q, partner);
  const now = new Date();
  return (
    <>
      <PageHeader
        title="All API keys"
        description="Search by the visible start a partner quotes (e.g. finca_live_AbC1). Newest first."
      />
      <form key={q ?? ""} role="search" aria-label="Search keys" className="mb-4 flex max-w-lg gap-2">
        <label htmlFor="q" className="sr-only">
          Visible start
        </label>
        <input id="q" name="q" type="search" defaultValue={q} className="input font-mono" placeholder="finca_live_…" />
        <button type="submit" className="btn-secondary">
          Search
        </button>
        {partner && <input type="hidden" name="partner" value={partner} />}
        {(q || partner) && (
          <Link className="btn-secondary" href="/admin/keys">
            Clear
          </Link>
        )}
      </form>
      {keys.length ? (
        <TableWrap label="API keys">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Partner</th>
                <th scope="col" className="hidden md:table-cell">
                  Name
                </th>
                <th scope="col">Mode</th>
                <th scope="col" className="hidden sm:table-cell">
                  Created
                </th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} className={keyIsActive(k, now) ? undefined : "text-slate-600"}>
                  <td className="whitespace-nowrap font-mono text-xs">{k.visibleStart}…</td>
                  <td>
                    <Link className="link" href={`/admin/webhooks?partner=${k.partnerId}`}>
                      {k.partner}
                    </Link>
                  </td>
                  <td className="hidden md:table-cell">{k.name}</td>
                  <td>
                    <Badge value={k.mode} />
                  </td>
                  <td className="hidden sm:table-cell">
                    <Time value={k.createdAt} />
                  </td>
                  <td>
                    {k.lastUsedAt ? <Time value={k.lastUsedAt} /> : <span className="text-slate-600">never</span>}
                  </td>
                  <td className="text-right">
                    {k.expiresAt && keyIsActive(k, now) && (
                      <span className="mr-2 text-xs text-slate-600">
                        expires <Time value={k.expiresAt} />
                      </span>
                    )}
                    {!keyIsActive(k, now) ? (
                      <Badge value={k.revokedAt ? "revoked" : "expired"} />
                    ) : (
                      <ActionButton
                        action={adminRevokeKey}
                        id={k.id}
                        className="btn-danger btn-sm"
                        pendingText="Revoking…"
                        confirm={`Revoke ${k.visibleStart}… of ${k.partner}? Their requests with it are refused at once.`}
                      >
                        Revoke
                      </ActionButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : (
        <EmptyState title={q ? "No keys match" : "No API keys yet"}>
          {q ? "Check the prefix: test keys start finca_test_, live keys finca_live_." : undefined}
        </EmptyState>
      )}
    </>
  );
}
