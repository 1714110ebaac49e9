import { openApiDocument } from "@/lib/partner-api/openapi";
import { scenarioReference } from "@/lib/enrichment/sources/sandbox";
import { Card, PageHeader } from "../_components/ui";

export const metadata = { title: "Docs" };

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[]; description?: string; $ref?: string; items?: Schema; anyOf?: Schema[]; format?: string };
type Operation = { operationId: string; summary: string; description?: string; responses: Record<string, { description: string }>; requestBody?: unknown };

function typeOf(s: Schema): string {
  if (s.$ref) return s.$ref.split("/").at(-1)!;
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (s.anyOf) return s.anyOf.map(typeOf).join(" | ");
  if (s.type === "array" && s.items) return `${typeOf(s.items)}[]`;
  return [s.type].flat().filter(Boolean).join(" | ") + (s.format ? ` (${s.format})` : "");
}

const code = (text: string) => <pre className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">{text}</pre>;

export default function Docs() {
  const doc = openApiDocument() as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
  return (
    <>
      <PageHeader title="Integration guide" description="Everything you need to register properties and receive them enriched." />
      <div className="space-y-4">
        <Card title="1. Authenticate">
          <p className="text-sm">Create a key on the API keys page. Send it in the <code>X-API-Key</code> header. Test keys (<code>finca_test_…</code>) use deterministic sandbox registers; live keys the real ones.</p>
        </Card>
        <Card title="2. Register a property">
          {code(`curl -X POST https://<your-finca-host>/api/v1/partner-api/properties \\
  -H "X-API-Key: $FINCA_KEY" -H "Content-Type: application/json" \\
  -d '{"cadastral_reference": "2749704YJ0624N0001DI"}'`)}
          <p className="mt-2 text-sm">201 with the Property and a Location header; registering the same reference again answers 200 with the existing property. The answer comes within about 1.5 s whatever the registers do.</p>
        </Card>
        <Card title="3. Handle nulls">
          <p className="text-sm">Fields not obtained in time are <code>null</code> and <code>status</code> is <code>enriching</code>. Do not poll: Finca retries what is missing and sends <code>property.enriched</code> with the whole Property when every source has finished. <code>enrichment</code> shows each source&apos;s status, attempts and last error.</p>
        </Card>
        <Card title="4. Verify webhooks">
          <p className="mb-2 text-sm">Deliveries follow Standard Webhooks: verify <code>webhook-signature</code> over the raw body with your endpoint&apos;s secret, and deduplicate on <code>webhook-id</code> (the same across retries and replays).</p>
          {code(`import { Webhook } from "standardwebhooks";

const wh = new Webhook(process.env.FINCA_WEBHOOK_SECRET); // whsec_...
app.post("/webhooks/finca", express.raw({ type: "application/json" }), (req, res) => {
  const event = wh.verify(req.body, req.headers); // throws if the signature is wrong or stale
  if (event.type === "property.enriched") saveProperty(event.data);
  res.sendStatus(204);
});`)}
        </Card>
        <Card title="5. Test-mode scenarios">
          <table className="table">
            <thead><tr><th>Reference</th><th>Behaviour</th></tr></thead>
            <tbody>
              <tr><td className="font-mono">{scenarioReference("9100")}</td><td>cadastre answers after the deadline on the first attempt; the retry succeeds (you get property.enriched)</td></tr>
              <tr><td className="font-mono">{scenarioReference("9200")}</td><td>energy certificate registry fails twice, then answers</td></tr>
              <tr><td className="font-mono">{scenarioReference("9300")}</td><td>ITE registry always fails: ite_fetch_status ends failed, status partially_enriched</td></tr>
              <tr><td className="font-mono">{scenarioReference("9404")}</td><td>the cadastre does not know the reference: status not_found</td></tr>
            </tbody>
          </table>
          <p className="mt-2 text-sm">Any 20-character reference whose unit number (characters 15-18) is one of these selects the scenario; every other reference answers at once with deterministic data. Test mode retries within seconds.</p>
        </Card>
      </div>

      <h2 className="mb-3 mt-10 text-xl font-semibold">API reference</h2>
      <div className="space-y-4">
        {Object.entries(doc.paths).flatMap(([path, methods]) =>
          Object.entries(methods).map(([method, op]) => (
            <Card key={`${method} ${path}`} title={<span className="font-mono text-sm"><span className="mr-2 rounded bg-brand-100 px-1.5 py-0.5 uppercase text-brand-900">{method}</span>/api/v1/partner-api{path}</span>}>
              <p className="text-sm font-medium">{op.summary}</p>
              {op.description && <p className="mt-1 text-sm text-slate-700">{op.description}</p>}
              <ul className="mt-2 text-sm">
                {Object.entries(op.responses).map(([status, r]) => (
                  <li key={status}><span className="font-mono font-semibold">{status}</span> {r.description}</li>
                ))}
              </ul>
            </Card>
          )),
        )}
      </div>
      <h2 className="mb-3 mt-10 text-xl font-semibold">Schemas</h2>
      <div className="space-y-4">
        {Object.entries(doc.components.schemas).map(([name, schema]) => (
          <Card key={name} title={<span className="font-mono">{name}</span>}>
            <table className="table">
              <thead><tr><th>Field</th><th>Type</th><th>Notes</th></tr></thead>
              <tbody>
                {Object.entries(schema.properties ?? {}).map(([field, s]) => (
                  <tr key={field}>
                    <td className="font-mono">{field}{schema.required?.includes(field) ? "" : "?"}</td>
                    <td className="font-mono text-xs">{typeOf(s)}</td>
                    <td className="text-xs">{s.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        ))}
      </div>
    </>
  );
}
