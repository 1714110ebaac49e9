"use client";

// The error boundary's content: a plain message, the digest to quote (it matches the server log),
// and a retry. Never the error's text: in production it carries nothing a user can act on.
export default function ErrorPanel({ error, retry }: { error: unknown; retry: () => void }) {
  const digest =
    error instanceof Error && "digest" in error && typeof error.digest === "string" ? error.digest : undefined;
  return (
    <div
      id="main"
      role="alert"
      className="mx-auto my-12 max-w-lg rounded-xl border border-red-200 bg-white p-6 text-center shadow-sm"
    >
      <h1 className="text-lg font-semibold text-slate-900">Something went wrong</h1>
      <p className="mt-2 text-sm text-slate-600">
        The page could not be loaded. Nothing you submitted was lost; try again in a moment.
      </p>
      {digest && (
        <p className="mt-2 text-xs text-slate-600">
          Reference for support: <code className="code-inline">{digest}</code>
        </p>
      )}
      <div className="mt-4 flex justify-center gap-2">
        <button type="button" className="btn" onClick={() => retry()}>
          Try again
        </button>
        <a className="btn-secondary" href="/">
          Home
        </a>
      </div>
    </div>
  );
}
