import { requirePartner } from "@/server/session";
import { listSessions } from "@/lib/auth/sessions";
import { AccountPage } from "../../_components/account-page";

export const metadata = { title: "Your account" };

export default async function Account({ searchParams }: { searchParams: Promise<{ changed?: string }> }) {
  const { app, user, sessionId } = await requirePartner();
  return (
    <AccountPage
      user={user}
      home="/dashboard"
      changed={(await searchParams).changed === "1"}
      sessions={await listSessions(app.db, user.id)}
      sessionId={sessionId}
    />
  );
}
