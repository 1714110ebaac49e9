import { ERROR_TITLES, isErrorCode, type ErrorCode } from "@/lib/domain";
import type { Config } from "@/lib/config";
import { MAX_BODY_BYTES, STATUS_OF_CODE } from "@/lib/partner-api";
import { connection } from "next/server";
import { getApp } from "@/server/app";
import { CodeBlock, PageHeader } from "../../_components/ui";

export const metadata = { title: "Errors" };

// Typed by the API's own list of codes: a new code without an explanation here fails the build.
const explanations = (config: Config): Record<ErrorCode, { cause: string; action: string }> => ({
  missing_api_key: {
    cause:
      "The X-API-Key header is missing, or the key is malformed, unknown or revoked. Nothing was counted against your rate limit.",
    action: "Send a current key in X-API-Key. Test keys start finca_test_, live keys finca_live_.",
  },
  rate_limited: {
    cause: `More than ${config.RATE_LIMIT_WRITES} write requests in the last ${config.RATE_LIMIT_WINDOW_SECONDS} seconds for your organisation in this mode (all your keys share the limit).`,
    action:
      "Wait the seconds given in Retry-After, then retry. The RateLimit header on every write tells you how much is left.",
  },
  validation_error: {
    cause: `The body is not JSON, not an object, lacks cadastral_reference or has it with the wrong type, has unknown fields, exceeds ${MAX_BODY_BYTES / 1024} KiB, or the Content-Type is not application/json.`,
    action:
      "Fix the request: errors[] points at each problem, with a JSON Pointer into the body or the name of the query parameter.",
  },
  invalid_cadastral_reference: {
    cause:
      "After removing spaces and hyphens and upper-casing, the reference is not 14 or 20 characters of 0-9, A-Z and Ñ, or a 20-character reference has wrong check letters.",
    action:
      "Check the reference against the source document; the detail says which rule failed. Do not retry unchanged.",
  },
  forbidden: {
    cause:
      "Never answered by the API, whose keys act with their organisation's whole access: the portal refuses with it a change your role does not allow (viewers see no keys or secrets and change nothing; only owners and admins manage the team).",
    action: "Ask an owner or admin of your organisation to make the change, or to give you a role that may.",
  },
  not_found: {
    cause:
      "No such resource for your organisation and mode. Another organisation's ids, and ids of the other mode, are not found either.",
    action: "Check the id, and that the key's mode (test or live) is the one the resource was created in.",
  },
  too_many_active_batches: {
    cause: `Your organisation already has ${config.BATCH_MAX_ACTIVE} batches queued or running in this mode. Nothing was created.`,
    action:
      "Wait for a batch to complete (batch.completed, or GET /batches/{id}), or cancel one with DELETE /batches/{id}, then submit again.",
  },
  method_not_allowed: {
    cause: "The path exists, but not with this HTTP method.",
    action: "See the API reference for the methods of each path.",
  },
  service_unavailable: {
    cause: "A dependency is briefly unavailable. Nothing you sent was half-applied.",
    action: "Retry after the seconds in Retry-After; creates are idempotent, so retrying is safe.",
  },
  internal_error: {
    cause: "An unexpected error on our side. It was logged with the request id.",
    action: "Retry later; if it persists, quote the request_id to support, who can look it up.",
  },
});

export default async function Errors() {
  await connection(); // the settings are the running server's, not the build's
  const { config } = await getApp();
  const EXPLANATIONS = explanations(config);
  const codes = Object.keys(EXPLANATIONS).filter(isErrorCode);
  return (
    <div className="max-w-3xl">
      <PageHeader
        title="Errors"
        description="Every error is an RFC 9457 application/problem+json body. Its type points to the code's entry on this page."
      />
      <CodeBlock label="Problem fields">{`{
  "type": "/docs/errors#<code>",
  "title": "…", "status": 400, "detail": "what exactly was wrong",
  "code": "<code>", "request_id": "quote it to support",
  "errors": [{ "pointer": "/cadastral_reference", "detail": "…" }]   // 422 only
}`}</CodeBlock>
      <p className="mt-3 text-sm text-slate-700">
        Every response carries the same id in its <code className="code-inline">X-Request-Id</code> header. Find any of
        your requests by it in the portal&apos;s{" "}
        <a className="link" href="/logs">
          Logs
        </a>{" "}
        (kept {config.REQUEST_LOG_RETENTION_DAYS} days): open it to see the body you sent (its first 4 KiB, keys and
        secrets redacted), your headers and the answer, with the field each error points at. Finca&apos;s support finds
        it too.
      </p>
      <p className="mb-6 mt-3 text-sm text-slate-700">
        When several problems apply, the first of this order is reported: 401, then 429, then 422, then 400.
      </p>
      <nav aria-label="Error codes" className="mb-6 flex flex-wrap gap-2">
        {codes.map((code) => (
          <a
            key={code}
            href={`#${code}`}
            className="rounded-full border border-slate-300 bg-white px-2.5 py-1 font-mono text-xs text-slate-700 hover:border-brand-600 hover:text-brand-800"
          >
            {STATUS_OF_CODE[code]} {code}
          </a>
        ))}
      </nav>
      <div className="space-y-4">
        {codes.map((code) => {
          const e = EXPLANATIONS[code];
          return (
            <section
              key={code}
              id={code}
              className="scroll-mt-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm target:border-brand-600 target:ring-2 target:ring-brand-100 sm:p-5"
            >
              <h2 className="flex flex-wrap items-baseline gap-2">
                <span className="rounded bg-slate-900 px-1.5 py-0.5 font-mono text-xs font-bold text-white">
                  {STATUS_OF_CODE[code]}
                </span>
                <span className="font-mono text-sm font-semibold text-slate-900">{code}</span>
                <span className="text-sm text-slate-600">{ERROR_TITLES[code]}</span>
              </h2>
              <p className="mt-2 text-sm text-slate-800">{e.cause}</p>
              <p className="mt-1 text-sm text-slate-800">
                <span className="font-medium">What to do:</span> {e.action}
              </p>
            </section>
          );
        })}
      </div>
    </div>
  );
}
