import Link from "next/link";
import { requestOrigin, requirePartner } from "@/server/session";
import { keyIsActive, listApiKeys } from "@/lib/api-keys";
import { SdkInstall } from "../../_components/sdk-install";
import { buttonColumn, DataTable, type Column } from "../../_components/data-table";
import { Badge, Card, EmptyState, PageHeader, Time } from "../../_components/ui";
import type { ApiKeySummary } from "@/lib/api-keys";
import { revokeKeyAction } from "./actions";
import { CreateKeyForm, LiveRequestForm, RollKeyForm } from "./forms";
import { getPartner } from "@/lib/partners";
import { can } from "@/lib/domain";

export const metadata = { title: "API keys" };

const keyColumn: Column<ApiKeySummary> = {
  header: "Key",
  cell: (k) => `${k.visibleStart}…`,
  className: "whitespace-nowrap font-mono text-xs",
};

export default async function Keys() {
  const { app, partnerId, mode, user } = await requirePartner("keys");
  // Only this mode's keys, like every other portal page: the mode switch is the one place to change.
  const [keys, partner] = await Promise.all([listApiKeys(app.db, { partnerId, mode }), getPartner(app.db, partnerId)]);
  const live = partner?.liveAccess ?? "none";
  const now = new Date();
  const active = keys.filter((k) => keyIsActive(k, now));
  const inactive = keys.filter((k) => !keyIsActive(k, now));
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Test keys use the sandbox registers and see only test data; live keys the real registers and live data.{" "}
            <Link className="link" href="/docs#authenticate">
              How to authenticate
            </Link>
          </>
        }
      />
      <Card title="Create a key" className="mb-6">
        <CreateKeyForm defaultMode={mode} live={live === "approved"} />
      </Card>
      {live !== "approved" && (
        <Card title="Live access" className="mb-6" id="live-access">
          <p className="mb-3 text-sm text-slate-600" data-testid="live-access">
            {live === "requested"
              ? `Requested on ${partner?.liveRequestedAt?.toISOString().slice(0, 10)}: Finca reviews it and answers here. Until then your organisation works in test mode only.`
              : live === "refused"
                ? "Finca refused the last request; an owner may ask again with more detail. Until then your organisation works in test mode only."
                : "Your organisation works in test mode only: live keys can be made once Finca has approved an owner's request."}
          </p>
          {live !== "requested" &&
            (can(user.role, "live") ? (
              <LiveRequestForm />
            ) : (
              <p className="text-sm text-slate-600">Ask an owner of your organisation to request it.</p>
            ))}
        </Card>
      )}
      {active.length > 0 && (
        <Card title="Roll a key" className="mb-6">
          <p className="mb-3 text-sm text-slate-600">
            A new key with the same name, shown once; the old key keeps working until the time you choose, so you can
            deploy the new one first.
          </p>
          <RollKeyForm keys={active.map((k) => ({ id: k.id, label: `${k.visibleStart}… (${k.name})` }))} />
        </Card>
      )}
      <h2 className="mb-3 text-base font-semibold text-slate-900">Active {mode} keys</h2>
      {active.length ? (
        <DataTable
          label="Active API keys"
          rows={active}
          rowKey={(k) => k.id}
          columns={[
            keyColumn,
            { header: "Name", cell: (k) => k.name, className: "min-w-32" },
            { header: "Created", cell: (k) => <Time value={k.createdAt} />, from: "sm" },
            { header: "Last used", cell: (k) => <Time value={k.lastUsedAt} missing="never" /> },
            { header: "Expires", cell: (k) => <Time value={k.expiresAt} missing="never" /> },
            buttonColumn<ApiKeySummary>({
              action: revokeKeyAction,
              label: "Revoke",
              pendingText: "Revoking…",
              confirm: (k) =>
                `Revoke ${k.visibleStart}… (${k.name})? Requests with it are refused at once. This cannot be undone.`,
            }),
          ]}
        />
      ) : (
        <EmptyState title={`No active ${mode} keys`}>
          {mode === "test"
            ? "Create a test key to try the API against the sandbox registers."
            : "Create a live key when your integration is ready for the real registers."}
        </EmptyState>
      )}
      {inactive.length > 0 && (
        <details className="mt-6">
          <summary className="cursor-pointer text-sm font-medium text-slate-700">
            Revoked and expired keys ({inactive.length})
          </summary>
          <div className="mt-3">
            <DataTable
              label="Revoked and expired API keys"
              rows={inactive}
              rowKey={(k) => k.id}
              rowClassName={() => "text-slate-600"}
              columns={[
                keyColumn,
                { header: "Name", cell: (k) => k.name },
                { header: "Status", cell: (k) => <Badge value={k.revokedAt ? "revoked" : "expired"} /> },
                { header: "Since", cell: (k) => <Time value={k.revokedAt ?? k.expiresAt} /> },
                { header: "Last used", cell: (k) => <Time value={k.lastUsedAt} />, from: "sm" },
              ]}
            />
          </div>
        </details>
      )}
      <Card title="The SDK and the finca command" className="mt-6">
        <SdkInstall origin={await requestOrigin()} />
      </Card>
    </>
  );
}
