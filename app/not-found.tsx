import Link from "next/link";

export const metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <main id="main" className="mx-auto my-16 max-w-lg px-4 text-center">
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">Page not found</h1>
      <p className="mt-2 text-sm text-slate-600">The address may be mistyped, or the page may have moved.</p>
      <div className="mt-6 flex justify-center gap-2">
        <Link className="btn" href="/dashboard">
          Go to the portal
        </Link>
        <Link className="btn-secondary" href="/docs">
          Read the docs
        </Link>
      </div>
    </main>
  );
}
