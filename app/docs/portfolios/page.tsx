import Link from "next/link";
import { connection } from "next/server";
import { getApp } from "@/server/app";
import { requestOrigin } from "@/server/session";
import { BATCH_ITEM_STATUSES } from "@/lib/domain";
import { MAX_JSON_ITEMS, MAX_TEXT, REFERENCE_HEADERS, RESULT_COLUMNS, RESULTS_MEDIA_TYPES } from "@/lib/batches";
import { IDEMPOTENCY_HOURS } from "@/lib/domain";
import { registerRates } from "@/lib/registers";
import { HEADER_ROWS } from "@/lib/spreadsheets/header";
import { c, codes, Section } from "../../_components/guide";
import { SamplePortfolioLinks } from "../../_components/sample-portfolio";
import { CodeBlock, PageHeader } from "../../_components/ui";

export const metadata = { title: "Portfolios guide" };

export default async function PortfoliosGuide() {
  await connection(); // the settings are the running server's, not the build's
  const { config } = await getApp();
  const base = `${await requestOrigin()}/api/v1/partner-api`;
  const rates = Object.entries(registerRates(config.REGISTER_RATE_LIMITS));
  return (
    <div className="max-w-3xl space-y-4">
      <PageHeader
        title="Portfolios"
        description="Register a whole portfolio (a mortgage book, an insured portfolio, a valuation batch) in one request, follow it, and download the results."
      />
      <Section id="submit" title="1. Submit a batch">
        <p>
          {c("POST /batches")} takes JSON (1 to {MAX_JSON_ITEMS.toLocaleString("en")} items), CSV or an XLSX workbook
          (up to {config.BATCH_MAX_ITEMS.toLocaleString("en")} rows and {config.BATCH_MAX_BYTES / 1024 / 1024} MiB). It
          counts once against your write limit, whatever its size, and answers {c("202")} with the batch at once.
        </p>
        <CodeBlock label="JSON body">{`curl -X POST ${base}/batches \\
  -H "X-API-Key: $FINCA_API_KEY" -H "Content-Type: application/json" \\
  -H "Idempotency-Key: book-2026-q4" \\
  -d '{"name": "Mortgage book Q4", "items": [
        {"cadastral_reference": "2749704YJ0624N0001DI", "external_id": "loan-0001"},
        {"cadastral_reference": "9872023VH5797S", "external_id": "loan-0002"}]}'`}</CodeBlock>
        <CodeBlock label="CSV body">{`curl -X POST "${base}/batches?name=Mortgage%20book%20Q4" \\
  -H "X-API-Key: $FINCA_API_KEY" -H "Content-Type: text/csv" \\
  -H "Idempotency-Key: book-2026-q4-csv" \\
  --data-binary @book.csv`}</CodeBlock>
        <p>
          The CSV is UTF-8 (a BOM is fine), separated by {c(",")} or {c(";")}, with a header row naming the reference
          column ({codes(REFERENCE_HEADERS)}; any case) and optionally {c("external_id")} (up to {MAX_TEXT} characters,
          yours to match results). Other columns are ignored. Excel&apos;s &quot;CSV UTF-8&quot; export works as it is.
          A workbook goes as it is, with {c(`Content-Type: ${RESULTS_MEDIA_TYPES.xlsx}`)}: its first sheet is read.
        </p>
        <p>
          CSV and XLSX are read the same way here, in{" "}
          <Link className="link" href="/portfolios">
            Portfolios
          </Link>{" "}
          and by {c("finca batch submit")}: the header row may sit below title rows (it is looked for among the first{" "}
          {HEADER_ROWS} rows). When your columns have other names, name them with {c("?reference_column=")} and{" "}
          {c("?external_id_column=")} (the CLI&apos;s {c("--reference-column")} and {c("--external-id-column")}; the
          portal lets you pick them); a file where no row names a reference column is a {c("422")} listing the accepted
          names.
        </p>
        <CodeBlock label="XLSX body, columns named your way">{`curl -X POST "${base}/batches?name=Book&reference_column=Ref.%20catastral&external_id_column=Prestamo" \
  -H "X-API-Key: $FINCA_API_KEY" \
  -H "Content-Type: ${RESULTS_MEDIA_TYPES.xlsx}" \
  --data-binary @book.xlsx`}</CodeBlock>
        <p>
          To try it in test mode: a sample of sandbox references, on new parcels at each download, as{" "}
          <SamplePortfolioLinks />, or as many as you need from {c("finca sandbox refs --count 1000")}.
        </p>
        <p>
          Sending the same {c("Idempotency-Key")} again within {IDEMPOTENCY_HOURS} h answers {c("200")} with the batch
          it created and creates nothing, so a timed-out upload can be retried safely; the same key with another body is
          a {c("422")} naming the header.
        </p>
        <p>
          A request that cannot be used as a whole (no rows, too many, too large, no reference column, not UTF-8) is a{" "}
          {c("422 validation_error")} whose {c("errors")} point at the problem ({c("pointer")} into JSON, {c("line")} of
          the CSV, or {c("header")}). A bad reference never fails the batch: that item is {c("invalid")}, with the
          reason. At most {config.BATCH_MAX_ACTIVE} batches may be queued or running per mode: one more is a{" "}
          {c("409 too_many_active_batches")}.
        </p>
      </Section>
      <Section id="follow" title="2. Follow it">
        <p>
          Each valid item is registered exactly as {c("POST /properties")} would register it: a reference you registered
          before reuses its property, and a reference repeated in the batch is a {c("duplicate")} pointing to the same
          property. Enrichment then runs in the background; each new property sends its {c("property.enriched")} as
          usual, and the batch sends {c("batch.completed")} once every item is final.
        </p>
        <CodeBlock label="Status and items">{`curl ${base}/batches/$BATCH_ID -H "X-API-Key: $FINCA_API_KEY"
curl "${base}/batches/$BATCH_ID/items?status=invalid&limit=100" -H "X-API-Key: $FINCA_API_KEY"`}</CodeBlock>
        <p>
          Item statuses: {codes(BATCH_ITEM_STATUSES)}. The batch&apos;s {c("counts")} add up to {c("total")}.{" "}
          {c("DELETE /batches/{id}")} cancels: items not started yet end {c("cancelled")}; those already registered
          finish.
        </p>
        <p>
          To receive only {c("batch.completed")} at an endpoint, create it with{" "}
          {c('"event_types": ["batch.completed"]')}.
        </p>
      </Section>
      <Section id="results" title="3. Download the results">
        <p>
          {c("GET /batches/{id}/results")} streams every item in input order with its property&apos;s data, also while
          the batch runs: CSV by default (UTF-8 with BOM; cells starting with {c("=")}, {c("+")}, {c("-")} or {c("@")}{" "}
          are prefixed with {c("'")} so spreadsheets never run them), an XLSX workbook with{" "}
          {c(`Accept: ${RESULTS_MEDIA_TYPES.xlsx}`)} (the same columns as typed cells: numbers, dates in UTC and
          booleans; every text exactly as given, never a formula), or NDJSON ({c("{item, property}")} a line) with{" "}
          {c("Accept: application/x-ndjson")}. The portal&apos;s portfolio page offers the three.
        </p>
        <p>
          To join the results back to a loan system by {c("external_id")}, use XLSX or NDJSON: they keep every text
          exactly as given, while the CSV turns an {c("external_id")} such as {c("+34 600 000 000")} into{" "}
          {c("'+34 600 000 000")}.
        </p>
        <CodeBlock label="Results">{`curl -o results.csv ${base}/batches/$BATCH_ID/results -H "X-API-Key: $FINCA_API_KEY"
curl -o results.xlsx ${base}/batches/$BATCH_ID/results -H "X-API-Key: $FINCA_API_KEY" \\
  -H "Accept: ${RESULTS_MEDIA_TYPES.xlsx}"
curl ${base}/batches/$BATCH_ID/results -H "X-API-Key: $FINCA_API_KEY" -H "Accept: application/x-ndjson"`}</CodeBlock>
        <p>
          Columns (CSV and XLSX, in this order; new columns are only ever appended): {codes(RESULT_COLUMNS)}.{" "}
          {c("attribution")} joins the property&apos;s notices with {c("; ")}; {c("enriched_at")} is UTC.
        </p>
      </Section>
      <Section id="cli" title="4. From the command line">
        <CodeBlock label="finca batch">{`export FINCA_API_KEY=finca_test_… FINCA_URL=${base.replace(/\/api\/v1\/partner-api$/, "")}
finca batch submit --file book.csv     # follows it, writes book.results.csv (XLSX too)
finca batch status $BATCH_ID
finca batch results $BATCH_ID --format ndjson`}</CodeBlock>
        <p className="mt-2">
          {c("finca")} is the command of the SDK&apos;s package, installed from this server as the API guide&apos;s{" "}
          <Link className="link" href="/docs#sdk">
            TypeScript SDK section
          </Link>{" "}
          says.
        </p>
      </Section>
      <Section id="pace" title="5. How fast, and why">
        <p>
          Live portfolios are enriched at the pace the public registers allow: each register receives at most so many
          requests per second from us, portfolios and single creates together, so that nobody floods a register. Single
          creates come first: a portfolio leaves them part of each register&apos;s budget and steps aside while one
          waits.
        </p>
        <ul className="list-disc pl-5">
          {rates.map(([register, rate]) => (
            <li key={register}>
              {c(register)}: {rate} requests per second
            </li>
          ))}
        </ul>
        <p>
          Several partners&apos; batches progress side by side: each batch has at most{" "}
          {config.BATCH_WINDOW.toLocaleString("en")} items enriching at a time.
        </p>
      </Section>
    </div>
  );
}
