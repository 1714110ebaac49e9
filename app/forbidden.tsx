import { StatusPage } from "./_components/status-page";

export const metadata = { title: "Not allowed" };

// What `forbidden()` (server/session.ts) renders, with status 403: a page the member's role may not see.
export default function Forbidden() {
  return (
    <StatusPage
      status={403}
      title="Your role does not allow this page"
      main={["/dashboard", "Go to the overview"]}
      other={["/team", "See your team"]}
    >
      Viewers see no API keys or secrets, and no live webhook endpoints; only owners and admins see the security
      history. An owner or admin of your organisation can change your role on the Team page.
    </StatusPage>
  );
}
