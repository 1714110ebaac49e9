import { PROBLEM_TITLES } from "@/lib/partner-api/errors";
import { PageHeader } from "../../_components/ui";

export const metadata = { title: "Errors" };

const EXPLANATIONS: Record<keyof typeof PROBLEM_TITLES, { status: number; text: string }> = {
  missing_api_key: { status: 401, text: "The X-API-Key header is missing, or the key is malformed, unknown or revoked. Nothing was counted against your rate limit." },
  rate_limited: { status: 429, text: "More than 100 write requests in the last 60 seconds for your organisation in this mode (all keys share the limit). Wait the seconds given in Retry-After." },
  validation_error: { status: 422, text: "The body is not JSON, not an object, lacks cadastral_reference or has it with the wrong type, has unknown fields, exceeds 16 KiB, or the Content-Type is not application/json. errors[] points at each problem (JSON Pointer, or the query parameter)." },
  invalid_cadastral_reference: { status: 400, text: "After removing spaces and hyphens and upper-casing, the reference is not 14 or 20 characters of 0-9, A-Z and Ñ, or a 20-character reference has wrong check letters." },
  not_found: { status: 404, text: "No such resource for your organisation and mode (another organisation's or mode's ids are not found either)." },
  method_not_allowed: { status: 405, text: "The path exists but not with this method." },
  service_unavailable: { status: 503, text: "A dependency is briefly unavailable. Retry after the seconds in Retry-After; nothing you sent was half-applied." },
  internal_error: { status: 500, text: "Our fault. Quote the request_id to support; the error was logged with it." },
};

export default function Errors() {
  return (
    <>
      <PageHeader title="Errors" description="Every error is an RFC 9457 problem+json body with type, title, status, detail, code and request_id. When several apply: 401, then 429, then 422, then 400." />
      <dl className="space-y-4">
        {Object.entries(EXPLANATIONS).map(([code, e]) => (
          <div key={code} id={code} className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-4">
            <dt className="font-mono text-sm font-semibold">{e.status} {code}</dt>
            <dd className="mt-1 text-sm text-slate-700">{PROBLEM_TITLES[code as keyof typeof PROBLEM_TITLES]}. {e.text}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}
