import { requireOperator } from "@/server/session";
import { LookupForm } from "../../_components/filters";
import { lookupOf, type LookupParams } from "@/lib/portal/params";
import { allKeys } from "@/lib/portal/queries";
import { keyIsActive } from "@/lib/api-keys";
import { ActionButton } from "../../_components/action-button";
import { DataTable } from "../../_components/data-table";
import { Badge, EmptyState, PageHeader, Time } from "../../_components/ui";
import { adminRevokeKey } from "../actions";

export const metadata = { title: "All API keys" };

export default async function AdminKeys({ searchParams }: { searchParams: Promise<LookupParams> }) {
  const { app } = await requireOperator();
  const { q, partner } = lookupOf(await searchParams, 64);
  const keys = await allKeys(app.db, q, partner);
  const now = new Date();
  return (
    <>
      <PageHeader
        title="All API keys"
        description="Search by the visible start a partner quotes (e.g. finca_live_AbC1). Newest first."
      />
      <LookupForm
        label="Search keys"
        field="Visible start"
        value={q}
        placeholder="finca_live_…"
        clearHref="/admin/keys"
        kept={{ partner }}
        button="Search"
      />
      {keys.length ? (
        <DataTable
          label="API keys"
          rows={keys}
          rowKey={(k) => k.id}
          rowClassName={(k) => (keyIsActive(k, now) ? undefined : "text-slate-600")}
          columns={[
            { header: "Key", cell: (k) => `${k.visibleStart}…`, className: "whitespace-nowrap font-mono text-xs" },
            { header: "Partner", cell: (k) => k.partner, href: (k) => `/admin/webhooks?partner=${k.partnerId}` },
            { header: "Name", cell: (k) => k.name, from: "md" },
            { header: "Mode", cell: (k) => <Badge value={k.mode} /> },
            { header: "Created", cell: (k) => <Time value={k.createdAt} />, from: "sm" },
            { header: "Last used", cell: (k) => <Time value={k.lastUsedAt} missing="never" /> },
            {
              header: null,
              className: "text-right",
              cell: (k) => (
                <>
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
                </>
              ),
            },
          ]}
        />
      ) : (
        <EmptyState title={q ? "No keys match" : "No API keys yet"}>
          {q ? "Check the prefix: test keys start finca_test_, live keys finca_live_." : undefined}
        </EmptyState>
      )}
    </>
  );
}
