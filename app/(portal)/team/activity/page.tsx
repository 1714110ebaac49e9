import Link from "next/link";
import { requirePartner } from "@/server/session";
import { Activity, type ActivitySearch } from "../../../_components/activity";
import { PageHeader } from "../../../_components/ui";

export const metadata = { title: "Activity" };

export default async function TeamActivity({ searchParams }: { searchParams: Promise<ActivitySearch> }) {
  const { app, partnerId } = await requirePartner("activity");
  return (
    <>
      <PageHeader
        title="Activity"
        description={
          <>
            Your organisation&apos;s security history, newest first: sign-ins, keys, webhook endpoints and team changes,
            by whom and from where, operators&apos; actions on your account included. Kept{" "}
            {app.config.AUDIT_RETENTION_DAYS} days.{" "}
            <Link className="link" href="/team">
              Back to the team
            </Link>
          </>
        }
      />
      <Activity db={app.db} partnerId={partnerId} search={await searchParams} href="/team/activity" />
    </>
  );
}
