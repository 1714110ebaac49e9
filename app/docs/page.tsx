import Link from "next/link";
import { IDEMPOTENCY_HOURS } from "@/lib/domain";
import { scenarioReference } from "@/lib/enrichment/sources/sandbox";
import { connection } from "next/server";
import { getApp } from "@/server/app";
import { SdkInstall } from "../_components/sdk-install";
import { currentUser, requestOrigin } from "@/server/session";
import { listApiKeys, keyIsActive } from "@/lib/api-keys";
import { ROTATION_OVERLAPS } from "@/lib/webhooks/endpoints";
import { aboutTotal, duration, scheduleText } from "@/lib/portal/durations";
import { coverage } from "@/lib/registers";
import { CoverageTable } from "../_components/coverage-table";
import { c, Section } from "../_components/guide";
import { CodeBlock, PageHeader } from "../_components/ui";

export const metadata = { title: "Integration guide" };

const SECTIONS = [
  ["authenticate", "1. Authenticate"],
  ["register", "2. Register a property"],
  ["handle-nulls", "3. Handle nulls"],
  ["verify-webhooks", "4. Receive and verify webhooks"],
  ["scenarios", "5. Test with sandbox scenarios"],
  ["errors-and-limits", "6. Errors and rate limit"],
  ["coverage", "7. Coverage by region"],
  ["sdk", "8. TypeScript SDK"],
  ["terms", "9. Terms and data licences"],
  ["listen", "10. Test webhooks on your machine"],
] as const;

const SCENARIOS = [
  [
    "9100",
    "The cadastre answers only after the create deadline on the first attempt; the retry succeeds.",
    "enriching, every enriched field null",
    "enriched; property.enriched is sent",
  ],
  [
    "9200",
    "The energy certificate registry fails the first 2 attempts, then answers.",
    "enriching, energy_certificate null",
    "enriched; property.enriched is sent",
  ],
  [
    "9300",
    "The ITE registry always fails.",
    "enriching, ite_fetch_status pending",
    "partially_enriched, ite_fetch_status failed; property.enriched is sent",
  ],
  [
    "9404",
    "The cadastre says the reference does not exist.",
    "not_found (final at once)",
    "no webhook: the response was already final",
  ],
] as const;

export default async function Guide() {
  await connection(); // the settings are the running server's, not the build's
  const { config, db } = await getApp();
  const [covered, origin, visitor] = await Promise.all([
    coverage(db, config.REGISTER_STALE_DAYS),
    requestOrigin(),
    currentUser(),
  ]);
  // Signed in: the examples name the partner's newest active test key (its visible start: the full
  // key exists only in the partner's hands).
  const now = new Date();
  const testKey = visitor?.user.partnerId
    ? (await listApiKeys(db, { partnerId: visitor.user.partnerId, mode: "test" })).find((k) => keyIsActive(k, now))
    : undefined;
  const base = `${origin}/api/v1/partner-api`;
  return (
    <div className="lg:grid lg:grid-cols-[14rem_1fr] lg:gap-8">
      <nav aria-label="On this page" className="mb-6 lg:sticky lg:top-6 lg:mb-0 lg:self-start">
        <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-600">On this page</p>
        <ul className="space-y-1 text-sm">
          {SECTIONS.map(([id, title]) => (
            <li key={id}>
              <a className="text-slate-700 hover:text-brand-700 hover:underline" href={`#${id}`}>
                {title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0">
        <PageHeader
          title="Integration guide"
          description="Register Spanish properties by cadastral reference and receive them enriched from the cadastre, the energy certificate registries and the building inspection (ITE) registries."
        />
        <div className="space-y-4">
          <Section id="authenticate" title="1. Authenticate">
            <p>
              Create a key on{" "}
              <Link className="link" href="/keys">
                API keys
              </Link>{" "}
              and send it in the {c("X-API-Key")} header of every request. It is shown once; store it as a secret. Test
              keys ({c("finca_test_…")}) use deterministic sandbox registers and see only test data; live keys (
              {c("finca_live_…")}) use the real registers and see only live data. A new organisation works in test mode:
              an owner requests live access on the API keys page, and live keys can be made once Finca approves it.
            </p>
            <p>
              A missing, unknown or revoked key is answered {c("401 missing_api_key")}. Revoking a key takes effect on
              the next request.
            </p>
          </Section>

          <Section id="register" title="2. Register a property">
            <p>
              The API&apos;s base URL is {c(base)}.{" "}
              {testKey ? (
                <>
                  The examples use your test key {c(`${testKey.visibleStart}…`)} ({testKey.name}): put the whole key,
                  shown once when you created it, in {c("FINCA_API_KEY")}.
                </>
              ) : (
                <>
                  Put your test key in {c("FINCA_API_KEY")}:{" "}
                  <Link className="link" href="/keys">
                    create one
                  </Link>{" "}
                  if you have none.
                </>
              )}
            </p>
            <CodeBlock label="Register a property with curl">{`${testKey ? `export FINCA_API_KEY="${testKey.visibleStart}…"  # your whole test key\n` : ""}curl -X POST "${base}/properties" \\
  -H "X-API-Key: $FINCA_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"cadastral_reference": "2749704YJ0624N0001DI"}'`}</CodeBlock>
            <p>
              The answer comes within about {config.ENRICHMENT_DEADLINE_MS / 1000} seconds whatever the registers do:{" "}
              {c("201 Created")} with the Property and a {c("Location")} header, or {c("200 OK")} with the existing
              property when the reference was registered before (the call is idempotent per reference, so retrying after
              a network error is safe). Spaces and hyphens are ignored and letters upper-cased before the reference is
              checked. With an {c("Idempotency-Key")} header (any 1 to 200 visible characters of yours, kept{" "}
              {IDEMPOTENCY_HOURS} h), a retry answers exactly as the first call did, {c("201")} included, and the same
              key with another reference is a {c("422")}: as on every POST.
            </p>
            <p>
              Many at once (a whole portfolio, up to {config.BATCH_MAX_ITEMS.toLocaleString("en")} references in one
              CSV): see the{" "}
              <Link className="link" href="/docs/portfolios">
                Portfolios guide
              </Link>
              .
            </p>
          </Section>

          <Section id="handle-nulls" title="3. Handle nulls">
            <p>
              Fields not obtained in time are {c("null")} and {c("status")} is {c("enriching")}; {c("ite_fetch_status")}{" "}
              is {c("pending")}. Finca retries each unfinished source with backoff and sends {c("property.enriched")}{" "}
              with the whole Property once every source has reached a final state. Do not poll; if you must,{" "}
              {c("GET /properties/{id}")} returns the current state.
            </p>
            <ul className="list-disc space-y-1 pl-5">
              <li>
                {c("status")}: {c("enriched")} (every source answered), {c("partially_enriched")} (a source gave up
                after all retries), {c("not_found")} (the cadastre does not know the reference).
              </li>
              <li>
                {c("energy_certificate.source")}: {c("registry")} for an official certificate, {c("estimated")} when
                none exists (modelled from year built, climate zone and use).
              </li>
              <li>
                {c("ite_fetch_status")}: {c("not_required")} for buildings younger than the region&apos;s
                first-inspection age; {c("unsupported")} where no machine-readable ITE registry exists.
              </li>
              <li>
                {c("enrichment")} shows each source&apos;s status, attempts, last error code and {c("provider")} (the
                register that answered: {c("catastro-ovc")}, {c("icaen-socrata")}, {c("gva-wfs")},{" "}
                {c("aragon-gaodcore")}, {c("index:<dataset>")}, {c("rules")}, {c("estimate")}; {c("sandbox")} in test
                mode): useful in your logs, not needed for your logic.
              </li>
            </ul>
            <p>
              Every member is always present, {c("null")} when its source has not answered or does not know it. From the
              cadastre: {c("use")} (normalised; a parcel&apos;s is the use with the largest built area) and{" "}
              {c("use_label")}, {c("built_area_m2")}, {c("plot_area_m2")}, {c("units_in_parcel")},{c("unit")}{" "}
              (staircase, floor, door: 20-character references only), {c("postal_code")}, {c("municipality_code")} (INE)
              and {c("location")} (WGS 84; {c("null")} when the coordinates service did not answer). A registry
              certificate adds {c("emissions_rating")}, {c("primary_energy_kwh_m2_year")},{" "}
              {c("emissions_kg_co2_m2_year")},{c("issued_on")}, {c("registered_on")} (where the registry gives a
              registration date), {c("valid_until")} (the registry&apos;s, else issue + 10 years, + 5 for a G issued
              since 2021-06-02; never from a registration date), {c("valid_until_source")} ({c("registry")},{" "}
              {c("derived")} or {c("unknown")}), {c("expired")}, {c("scope")} ({c("building")} when the whole
              building&apos;s certificate stands in for the unit), {c("registry")} and {c("certificate_id")}; an
              estimate adds {c("probabilities")} (A–G, summing to 1), {c("confidence")} and
              {c("basis")}, and its {c("rating")} is the most probable letter. {c("ite")} gives the latest
              inspection&apos;s date, result and reference where a registry has one, and {c("next_due_on")} (the latest
              inspection + 10 years, or the end of the year the building reaches its region&apos;s confirmed
              first-inspection age). {c("overdue")} says whether that date is past (today&apos;s date in Spain). The API
              reference lists every field and when it is null.
            </p>
          </Section>

          <Section id="verify-webhooks" title="4. Receive and verify webhooks">
            <p>
              Add an endpoint on{" "}
              <Link className="link" href="/webhooks">
                Webhooks
              </Link>{" "}
              (live endpoints need https). Deliveries follow Standard Webhooks: verify {c("webhook-signature")} over the
              raw body with the endpoint&apos;s secret, and deduplicate on {c("webhook-id")}, which stays the same
              across retries and replays. Answer any 2xx within {config.WEBHOOK_TIMEOUT_MS / 1000} seconds; anything
              else is retried after {scheduleText(config.WEBHOOK_RETRY_SCHEDULE)} in live mode (
              {scheduleText(config.WEBHOOK_RETRY_SCHEDULE_TEST)} in test mode). Answering {c("410 Gone")} disables the
              endpoint.
            </p>
            <CodeBlock label="Verifying a webhook in Node.js with standardwebhooks">{`import express from "express";
import { Webhook } from "standardwebhooks";

const wh = new Webhook(process.env.FINCA_WEBHOOK_SECRET); // "whsec_…"
const app = express();

// The signature covers the raw bytes: do not parse the JSON before verifying.
app.post("/webhooks/finca", express.raw({ type: "application/json" }), (req, res) => {
  let event;
  try {
    event = wh.verify(req.body, req.headers); // checks signature and timestamp
  } catch {
    return res.sendStatus(400);
  }
  if (alreadyProcessed(req.headers["webhook-id"])) return res.sendStatus(204);
  if (event.type === "property.enriched") saveProperty(event.data); // the whole Property
  res.sendStatus(204);
});`}</CodeBlock>
            <p>
              During a secret rotation the header carries two signatures for the overlap you choose (up to{" "}
              {duration(ROTATION_OVERLAPS["24h"] / 1000)}, or until you expire the old secret); the library accepts
              either. A second rotation while an overlap is open is refused unless you confirm that the old secret stops
              signing at once. {c("Send test event")} on the Webhooks page delivers a {c("webhook.test")} event to check
              your endpoint end to end.
            </p>
          </Section>

          <Section id="scenarios" title="5. Test with sandbox scenarios">
            <p>
              With a test key, a 20-character reference whose unit number (characters 15–18) is one of these selects a
              scenario; its check letters must still be valid. Every other reference answers at once with deterministic
              data drawn from real municipalities. Test mode retries after{" "}
              {scheduleText(config.ENRICHMENT_RETRY_SCHEDULE_TEST)}, so each scenario ends within{" "}
              {aboutTotal(config.ENRICHMENT_RETRY_SCHEDULE_TEST)} (live mode:{" "}
              {scheduleText(config.ENRICHMENT_RETRY_SCHEDULE)}).
            </p>
            <div data-scrolls className="overflow-x-auto" role="region" aria-label="Sandbox scenarios" tabIndex={0}>
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Example reference</th>
                    <th scope="col">What happens</th>
                    <th scope="col">Create response</th>
                    <th scope="col">Final state</th>
                  </tr>
                </thead>
                <tbody>
                  {SCENARIOS.map(([unit, what, response, final]) => (
                    <tr key={unit}>
                      <td className="whitespace-nowrap font-mono text-xs">{scenarioReference(unit)}</td>
                      <td>{what}</td>
                      <td className="text-xs">{response}</td>
                      <td className="text-xs">{final}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p>
              More, each on a new parcel, as a portfolio file to upload as it is:{" "}
              {c("finca sandbox refs --count 100 [--scenario 9300] [--format csv|xlsx] [--out book.xlsx]")} (ordinary
              references, answered at once, unless a scenario is named).
            </p>
          </Section>

          <Section id="errors-and-limits" title="6. Errors and rate limit">
            <p>
              Errors are {c("application/problem+json")} (RFC 9457) with a stable {c("code")} and a {c("request_id")} to
              quote to support. Each code is explained on{" "}
              <Link className="link" href="/docs/errors">
                Errors
              </Link>
              , which is also where every problem&apos;s {c("type")} points.
            </p>
            <CodeBlock label="A problem response">{`HTTP/1.1 400 Bad Request
Content-Type: application/problem+json

{
  "type": "/docs/errors#invalid_cadastral_reference",
  "title": "Invalid cadastral reference",
  "status": 400,
  "detail": "The cadastral reference \\"12345\\" must be 14 (parcel) or 20 (unit) characters after removing spaces and hyphens.",
  "code": "invalid_cadastral_reference",
  "request_id": "req_…"
}`}</CodeBlock>
            <p>
              Writes are limited to {config.RATE_LIMIT_WRITES} per sliding {config.RATE_LIMIT_WINDOW_SECONDS} seconds
              per organisation and mode, shared by all your keys. Every write response carries {c("RateLimit-Policy")}{" "}
              and {c("RateLimit")}
              {";"}a {c("429")} adds {c("Retry-After")} in seconds.
            </p>
          </Section>

          <Section id="coverage" title="7. Coverage by region">
            <p>
              What each source can tell, per autonomous community, as {c("GET /api/v1/partner-api/coverage")} returns
              it. Providers are asked in the order listed: {c("index:<dataset>")} is this service&apos;s copy of a
              region&apos;s open dataset (with the date it describes and its rows), {c("live")} a register queried by
              reference, {c("rules")} the region&apos;s confirmed first-inspection age, {c("estimate")} the modelled
              rating. {c("enrichment.<source>.provider")} on each property says which one answered; in test mode it is
              always {c("sandbox")}. A city&apos;s inspection register kept by street address (Madrid&apos;s,{" "}
              {c("index:mad-ite")}) covers that city only and is matched through the building&apos;s Catastro address,
              after its reference.
            </p>
            <p>
              Each register&apos;s {c("format_evidence")} says how far the way it is read rests on evidence:{" "}
              {c("confirmed")} by independent public evidence (the publisher&apos;s own documentation or code, or
              several independent readers of the same data, listed in {c("citations")}), {c("single_source")} by one
              peer&apos;s scripts, {c("unconfirmed")} by less. None has been checked against a real download from this
              service&apos;s own machines.
            </p>
            <CoverageTable rows={covered} />
          </Section>

          <Section id="sdk" title="8. TypeScript SDK">
            <p>
              The SDK types every operation from this API&apos;s OpenAPI document, throws {c("FincaApiError")} with the
              problem&apos;s {c("code")} and {c("requestId")}, waits out a 429 as {c("Retry-After")} says, walks pages
              and verifies webhooks ({c("req.headers")} of Node.js or Express, a Fetch request&apos;s {c("headers")}, or
              a plain object). Its package also holds the {c("finca")} command; install both from this server:
            </p>
            <SdkInstall origin={origin} />
            <CodeBlock label="The SDK in ten lines">{`import { createFinca, FincaApiError, verifyWebhook } from "@finca/sdk";

const finca = createFinca({ apiKey: process.env.FINCA_API_KEY!, baseUrl: "${origin}" });
const property = await finca.properties.create("2749704YJ0624N0001DI");
for await (const p of finca.properties.all({ status: "enriched" })) console.log(p.cadastral_reference);
const { batch } = await finca.batches.upload(csv, { name: "Q4 book", idempotencyKey: "q4" });
await finca.batches.wait(batch.batch_id, { onProgress: (b) => console.log(b.counts) });
try { await finca.properties.get("unknown") } catch (e) { if (e instanceof FincaApiError) console.log(e.code) }
// In your webhook receiver, with the raw body and the endpoint's whsec_ secret:
const event = verifyWebhook(rawBody, headers, process.env.FINCA_WEBHOOK_SECRET!);`}</CodeBlock>
          </Section>

          <Section id="terms" title="9. Terms and data licences">
            <p>
              The API and this documentation are for Finca partners under their partner agreement (the OpenAPI
              document&apos;s licence). What the API returns from public registers keeps its publishers&apos; terms: the
              cadastre&apos;s under the Dirección General del Catastro&apos;s conditions of use, each regional
              register&apos;s under the licence its open-data portal states; the reference data (IGN/CNIG) is CC BY 4.0.
              Estimated ratings are Finca&apos;s own model and say so in {c("source")}.
            </p>
          </Section>

          <Section id="listen" title="10. Test webhooks on your machine">
            <p>
              No public URL needed: as {c("stripe listen")} does, the {c("finca")} CLI holds one connection to this
              server and posts each of your test-mode events to a receiver on your machine, signed exactly as a delivery
              is. The CLI is the {c("finca")} command of the SDK&apos;s package (installed from this server:{" "}
              <a className="link" href="#sdk">
                section 8
              </a>
              ); in a checkout of Finca itself it is {c("npm run finca --")}. The key comes from {c("FINCA_API_KEY")} or
              from {c("finca login")}, which keeps it in a file only you can read (either way it stays out of {c("ps")}{" "}
              and your shell history); test keys only. The CLI prints the signing secret first, the same on every
              connection: configure your receiver with it once.
            </p>
            <CodeBlock label="Forward test events to a local receiver, then make one happen">{`export FINCA_API_KEY="finca_test_…"   # your whole test key
export FINCA_URL="${origin}"
finca listen --forward-to http://localhost:4000/webhooks/finca

# in another terminal: a new sandbox property whose enrichment finishes a few seconds later
finca trigger property.enriched
# or a two-item portfolio
finca trigger batch.completed`}</CodeBlock>
            <p>
              A session ends when its key is revoked or expires (checked every{" "}
              {duration(config.LISTEN_KEY_CHECK_MS / 1000)}) and after {duration(config.LISTEN_MAX_SESSION_SECONDS)},
              when the CLI reconnects by itself; at most {config.LISTEN_MAX_SESSIONS} sessions per partner at once.
            </p>
          </Section>
        </div>
      </div>
    </div>
  );
}
