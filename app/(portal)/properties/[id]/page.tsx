import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePartner } from "@/server/session";
import { can } from "@/lib/domain";
import { isUuid } from "@/lib/domain";
import { getProperty } from "@/lib/properties";
import { deliveries, timeline } from "@/lib/portal/queries";
import { SOURCES } from "@/lib/domain";
import { AutoRefresh } from "../../../_components/auto-refresh";
import { cadastreViewerUrl, formatDuration, LaneChart, LocationView, RatingBars } from "../../../_components/charts";
import { DeliveryList } from "../../../_components/delivery-list";
import { CopyButton } from "../../../_components/copy-button";
import { Badge, Card, CodeBlock, Missing, PageHeader, TableWrap, Time } from "../../../_components/ui";
import { replayDeliveryAction } from "../../webhooks/actions";

export const metadata = { title: "Property" };

const SOURCE_LABEL: Record<string, string> = {
  cadastre: "Cadastre",
  energy_certificate: "Energy certificate",
  ite: "ITE",
};
const OUTCOME_COLOR: Record<string, string> = {
  completed: "text-emerald-500",
  not_found: "text-slate-400",
  error: "text-red-500",
  timeout: "text-amber-500",
};

export default async function PropertyPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { app, scope, user } = await requirePartner();
  // Scoped to the partner and mode: another partner's id is simply not found.
  const property = isUuid(id) ? await getProperty(app.db, scope, id.toLowerCase()) : null;
  if (!property) notFound();
  const [steps, sent] = await Promise.all([
    timeline(app.db, property.property_id),
    deliveries(app.db, { scope, propertyId: property.property_id }).then((page) => page.data),
  ]);
  const enriching = property.status === "enriching";
  // The request's arrival: the inline attempts start before the property row is written.
  const origin = Math.min(Date.parse(property.created_at), ...steps.map((s) => s.startedAt.getTime()));
  const end = Math.max(
    enriching ? Date.now() : Date.parse(property.enriched_at ?? property.updated_at),
    ...steps.map((s) => s.startedAt.getTime() + s.durationMs),
  );
  const certificate = property.energy_certificate;
  const ite = property.ite;
  const unit = property.unit;
  const m2 = (n: number | null) => (n === null ? null : `${n.toLocaleString("en")} m²`);
  const sections: [string, [string, React.ReactNode][]][] = [
    [
      "Cadastre",
      [
        ["Address", property.address],
        [
          "Municipality",
          property.municipality &&
            `${property.municipality}${property.municipality_code ? ` (INE ${property.municipality_code})` : ""}`,
        ],
        ["Province", property.province],
        ["Autonomous community", property.ccaa],
        ["Postal code", property.postal_code],
        ["Use", property.use && `${property.use.replace("_", " ")} (${property.use_label})`],
        ["Year built", property.year_built],
        ["Built area", m2(property.built_area_m2)],
        ["Plot area", m2(property.plot_area_m2)],
        ["Units in parcel", property.units_in_parcel],
        [
          "Unit",
          unit &&
            [
              unit.staircase && `staircase ${unit.staircase}`,
              unit.floor && `floor ${unit.floor}`,
              unit.door && `door ${unit.door}`,
            ]
              .filter(Boolean)
              .join(", "),
        ],
        ["Climate zone", property.climate_zone],
        [
          "Location",
          property.location && (
            <LocationView key="location" reference={property.cadastral_reference} {...property.location} />
          ),
        ],
      ],
    ],
    [
      "Energy certificate",
      certificate?.source === "estimated"
        ? [
            [
              "Estimated rating",
              <span key="rating">
                <span className="font-semibold">{certificate.rating}</span>{" "}
                <span className="text-slate-600">
                  (no certificate found; confidence {certificate.confidence?.replace("_", " ")})
                </span>
              </span>,
            ],
            [
              "Probabilities",
              certificate.probabilities && <RatingBars key="bars" probabilities={certificate.probabilities} />,
            ],
            ["Basis", certificate.basis],
          ]
        : [
            [
              "Rating",
              certificate && (
                <span key="rating">
                  <span className="font-semibold">{certificate.rating}</span>
                  {certificate.emissions_rating && (
                    <span className="text-slate-600"> · emissions {certificate.emissions_rating}</span>
                  )}
                </span>
              ),
            ],
            [
              "Primary energy",
              certificate?.primary_energy_kwh_m2_year != null &&
                `${certificate.primary_energy_kwh_m2_year} kWh/m²·year`,
            ],
            [
              "Emissions",
              certificate?.emissions_kg_co2_m2_year != null && `${certificate.emissions_kg_co2_m2_year} kg CO₂/m²·year`,
            ],
            ["Issued", certificate?.issued_on],
            ["Registered", certificate?.registered_on],
            [
              "Valid until",
              certificate?.valid_until_source === "unknown"
                ? "unknown (the registry gives no issue date)"
                : certificate?.valid_until && (
                    <span key="valid">
                      {certificate.valid_until}
                      {certificate.valid_until_source === "derived" && " (from the issue date)"}
                      {certificate.expired && (
                        <>
                          {" "}
                          <Badge value="failed" label="expired" />
                        </>
                      )}
                    </span>
                  ),
            ],
            ["Scope", certificate?.scope && (certificate.scope === "unit" ? "this unit" : "the whole building")],
            [
              "Registry",
              certificate?.registry &&
                `${certificate.registry}${certificate.certificate_id ? ` · ${certificate.certificate_id}` : ""}`,
            ],
          ],
    ],
    [
      "Building inspection (ITE)",
      [
        ["Status", <Badge key="ite" value={property.ite_fetch_status} />],
        ["Inspected", ite?.inspected_on],
        ["Result", ite?.result],
        [
          "Next due",
          ite?.next_due_on &&
            (ite.overdue ? (
              <span key="due">
                {ite.next_due_on} <Badge value="overdue" />
              </span>
            ) : (
              ite.next_due_on
            )),
        ],
        ["Registry", ite?.registry && `${ite.registry}${ite.reference ? ` · ${ite.reference}` : ""}`],
      ],
    ],
  ];
  const json = JSON.stringify(property, null, 2);
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href="/properties" className="link">
          Properties
        </Link>{" "}
        <span aria-hidden="true" className="text-slate-400">
          /
        </span>{" "}
        <span className="font-mono text-slate-600">{property.cadastral_reference}</span>
      </nav>
      <PageHeader
        title={<span className="font-mono">{property.cadastral_reference}</span>}
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <Badge value={property.status} />
            <span>
              registered <Time value={property.created_at} seconds />
            </span>
            {property.enriched_at && (
              <span>final after {formatDuration(Date.parse(property.enriched_at) - origin)}</span>
            )}
          </span>
        }
        actions={<AutoRefresh active={enriching} message="Enrichment in progress — this page updates by itself" />}
      />
      <div className="grid gap-4 lg:grid-cols-5">
        <Card title="Enriched data" className="lg:col-span-3">
          {property.status === "not_found" ? (
            <div className="text-sm text-slate-700" data-testid="not-found">
              <p className="font-medium text-slate-900">The cadastre has no property with this reference.</p>
              <p className="mt-1">
                Nothing else was looked up: certificates and inspections are found through the cadastre&apos;s answer.
                Check the reference against the deed or the{" "}
                <a
                  className="link"
                  href={cadastreViewerUrl(property.cadastral_reference)}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  cadastre&apos;s own viewer
                </a>
                ; a corrected reference is a new property.
              </p>
            </div>
          ) : (
            sections.map(([title, rows]) => (
              <section key={title} className="mb-5 last:mb-0">
                <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
                <dl className="grid grid-cols-[8.5rem_1fr] gap-x-4 gap-y-2 text-sm sm:grid-cols-[11rem_1fr]">
                  {rows.map(([k, v]) => (
                    <div key={k} className="contents">
                      <dt className="text-slate-600">{k}</dt>
                      <dd className="min-w-0 break-words text-slate-900">
                        {v === null || v === undefined || v === false || v === "" ? (
                          <Missing>{enriching ? "not yet known" : "not available"}</Missing>
                        ) : (
                          v
                        )}
                      </dd>
                    </div>
                  ))}
                </dl>
              </section>
            ))
          )}
        </Card>
        <Card title="Sources" className="lg:col-span-2">
          <ul className="divide-y divide-slate-100 text-sm">
            {SOURCES.map((source) => {
              const e = property.enrichment[source];
              return (
                <li key={source} className="py-2 first:pt-0 last:pb-0">
                  <div className="flex items-center justify-between gap-2">
                    <span className="font-medium text-slate-800">{SOURCE_LABEL[source]}</span>
                    {e.status === "completed" && !e.attempts ? (
                      <Badge value="skipped" />
                    ) : source === "cadastre" && property.status === "not_found" ? (
                      <Badge value="not_found" />
                    ) : (
                      <Badge value={e.status} label={e.status === "pending" ? "retrying" : e.status} />
                    )}
                  </div>
                  <p className="mt-0.5 text-xs text-slate-600">
                    {e.attempts ? (
                      <>
                        {e.attempts} attempt{e.attempts === 1 ? "" : "s"} · last <Time value={e.updated_at} seconds />
                      </>
                    ) : e.status === "pending" ? (
                      "waiting for the cadastre"
                    ) : property.status === "not_found" ? (
                      "not asked: the cadastre does not know the reference"
                    ) : (
                      "not needed"
                    )}
                    {e.provider && (
                      <>
                        {" "}
                        · from <code className="font-mono">{e.provider}</code>
                      </>
                    )}
                    {e.error && (
                      <span className="text-red-700">
                        {" "}
                        · last error <code className="font-mono">{e.error}</code>
                      </span>
                    )}
                  </p>
                </li>
              );
            })}
          </ul>
        </Card>
      </div>

      <Card
        title="Enrichment timeline"
        className="mt-4"
        actions={<span className="text-xs text-slate-600">time since registration</span>}
      >
        {steps.length ? (
          <>
            <LaneChart
              label="Attempts per source over time"
              spanMs={end - origin}
              lanes={SOURCES.map((source) => ({
                label: SOURCE_LABEL[source]!,
                marks: steps
                  .filter((s) => s.source === source)
                  .map((s) => ({
                    startMs: Math.max(0, s.startedAt.getTime() - origin),
                    durationMs: s.durationMs,
                    color: OUTCOME_COLOR[s.outcome]!,
                    title: `#${s.attempt} ${s.outcome} in ${s.durationMs} ms`,
                  })),
              }))}
            />
            <div className="mt-3 flex flex-wrap gap-3 text-xs text-slate-600" aria-hidden="true">
              {Object.entries(OUTCOME_COLOR).map(([outcome, color]) => (
                <span key={outcome} className="inline-flex items-center gap-1.5">
                  <span className={`size-2.5 rounded-sm bg-current ${color}`} />
                  {outcome.replace("_", " ")}
                </span>
              ))}
            </div>
            <div className="mt-4">
              <TableWrap label="Enrichment attempts">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Started</th>
                      <th scope="col">Source</th>
                      <th scope="col">Outcome</th>
                      <th scope="col" className="hidden sm:table-cell">
                        Took
                      </th>
                      <th scope="col" className="hidden md:table-cell">
                        Run
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {steps.map((s) => (
                      <tr key={s.id}>
                        <td>
                          <span className="whitespace-nowrap tabular-nums">
                            +{formatDuration(Math.max(0, s.startedAt.getTime() - origin))}
                          </span>
                        </td>
                        <td>
                          {SOURCE_LABEL[s.source]} <span className="text-slate-500">#{s.attempt}</span>
                        </td>
                        <td>
                          <Badge value={s.outcome} />
                          <span className="mt-0.5 block text-xs tabular-nums text-slate-600 sm:hidden">
                            {s.durationMs} ms
                          </span>
                          {s.error && s.error !== s.outcome && (
                            <span className="mt-0.5 block font-mono text-xs text-red-700">{s.error}</span>
                          )}
                        </td>
                        <td className="hidden tabular-nums sm:table-cell">{s.durationMs} ms</td>
                        <td className="hidden md:table-cell">
                          {s.trigger === "inline" ? "during the create request" : "background retry"}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            </div>
          </>
        ) : (
          <p className="text-sm text-slate-600">No attempts recorded yet.</p>
        )}
      </Card>

      {can(user.role, "endpoints", scope.mode) && (
        <Card title="Webhook deliveries" className="mt-4">
          {sent.length ? (
            <DeliveryList
              items={sent}
              label="Webhook deliveries of this property"
              replay={can(user.role, "webhooks", scope.mode) ? replayDeliveryAction : undefined}
              showEndpoint
            />
          ) : (
            <p className="text-sm text-slate-600">
              None. <code className="code-inline">property.enriched</code> is sent to every enabled endpoint when
              enrichment finishes after the create response; a property that was final in the response needs none.
            </p>
          )}
        </Card>
      )}

      <Card title="Property JSON" className="mt-4" actions={<CopyButton value={json} label="Copy JSON" />}>
        <p className="mb-2 text-xs text-slate-600">
          Exactly what <code className="code-inline">GET /api/v1/partner-api/properties/{property.property_id}</code>{" "}
          returns.
        </p>
        <div data-testid="property-json">
          <CodeBlock label="Property JSON">{json}</CodeBlock>
        </div>
      </Card>
    </>
  );
}
