import { requirePartner } from "@/lib/auth/session";
import { teamOf } from "@/lib/portal/queries";
import { Badge, Card, PageHeader, Time } from "../../_components/ui";
import { InviteForm } from "../forms";

export const metadata = { title: "Team" };

export default async function Team() {
  const { app, partnerId, user } = await requirePartner();
  const members = await teamOf(app.db, partnerId);
  return (
    <>
      <PageHeader title="Team" description="Everyone here sees your organisation's keys, properties and webhooks." />
      {user.role === "owner" && (
        <Card title="Invite a member" className="mb-6">
          <InviteForm />
        </Card>
      )}
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="table">
          <thead><tr><th>Email</th><th>Name</th><th>Role</th><th className="hidden sm:table-cell">Joined</th></tr></thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.id}><td>{m.email}</td><td>{m.name ?? "—"}</td><td><Badge value={m.role} /></td><td className="hidden sm:table-cell"><Time value={m.createdAt} /></td></tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
