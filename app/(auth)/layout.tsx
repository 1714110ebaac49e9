import Link from "next/link";

export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <main
      id="main"
      className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-12"
    >
      <div className="w-full max-w-md">
        <p className="mb-6 flex items-center justify-center gap-2 text-2xl font-semibold tracking-tight text-brand-700">
          <span
            aria-hidden="true"
            className="grid size-9 place-items-center rounded-lg bg-brand-700 text-lg text-white"
          >
            F
          </span>
          Finca
        </p>
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">{children}</div>
        <p className="mt-6 text-center text-xs text-slate-600">
          Partner API for Spanish property data ·{" "}
          <Link className="underline" href="/docs">
            Documentation
          </Link>
        </p>
      </div>
    </main>
  );
}
