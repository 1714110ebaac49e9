import { requireOperator } from "@/server/session";
import { Activity, type ActivitySearch } from "../../_components/activity";
import { PageHeader } from "../../_components/ui";

export const metadata = { title: "Activity" };

export default async function AdminActivity({ searchParams }: { searchParams: Promise<ActivitySearch> }) {
  const { app } = await requireOperator();
  return (
    <>
      <PageHeader
        title="Activity"
        description={`Every partner's security history and the operators' own actions, newest first. Kept ${app.config.AUDIT_RETENTION_DAYS} days.`}
      />
      <Activity db={app.db} search={await searchParams} href="/admin/activity" showPartner />
    </>
  );
}
