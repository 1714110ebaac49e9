import Link from "next/link";

export default function DocsLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center gap-4 px-4 py-3">
          <Link href="/dashboard" className="text-lg font-semibold text-brand-700">Finca</Link>
          <nav aria-label="Docs" className="flex gap-3 text-sm">
            <Link className="underline" href="/docs">Guide &amp; reference</Link>
            <Link className="underline" href="/docs/errors">Errors</Link>
            <a className="underline" href="/api/v1/partner-api/openapi.json">openapi.json</a>
          </nav>
        </div>
      </header>
      <main className="prose-sm mx-auto max-w-5xl px-4 py-6">{children}</main>
    </div>
  );
}
