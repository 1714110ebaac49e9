import Link from "next/link";

export const metadata = { title: "Not allowed" };

// What `forbidden()` (server/session.ts) renders, with status 403: a page the member's role may not see.
export default function Forbidden() {
  return (
    <main id="main" className="mx-auto my-16 max-w-lg px-4 text-center">
      <p className="text-sm font-semibold text-brand-700">403</p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">Your role does not allow this page</h1>
      <p className="mt-2 text-sm text-slate-600">
        Viewers see no API keys or secrets, and no live webhook endpoints; only owners and admins see the security
        history. An owner or admin of your organisation can change your role on the Team page.
      </p>
      <div className="mt-6 flex justify-center gap-2">
        <Link className="btn" href="/dashboard">
          Go to the overview
        </Link>
        <Link className="btn-secondary" href="/team">
          See your team
        </Link>
      </div>
    </main>
  );
}
