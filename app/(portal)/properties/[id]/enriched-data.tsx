// A property's enriched data, as the registers gave it: the cadastre's facts, the energy certificate
// (or the estimate standing in for one) and the building inspection; what is not known (yet) says so.
import type { Property } from "@/lib/domain";
import { cadastreViewerUrl, LocationView, RatingBars } from "../../../_components/charts";
import { Badge, Card, Missing } from "../../../_components/ui";

const m2 = (n: number | null) => (n === null ? null : `${n.toLocaleString("en")} m²`);

type Rows = [string, React.ReactNode][];

function cadastre(property: Property): Rows {
  const unit = property.unit;
  return [
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
  ];
}

/** The certificate the registry holds, or the estimate that stands in for a missing one. */
function certificate(property: Property): Rows {
  const certificate = property.energy_certificate;
  return certificate?.source === "estimated"
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
          certificate?.primary_energy_kwh_m2_year != null && `${certificate.primary_energy_kwh_m2_year} kWh/m²·year`,
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
      ];
}

function inspection(property: Property): Rows {
  const ite = property.ite;
  return [
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
  ];
}

/** Each section's title and rows (label, value; an empty value is shown as missing). */
const sectionsOf = (property: Property): [string, Rows][] => [
  ["Cadastre", cadastre(property)],
  ["Energy certificate", certificate(property)],
  ["Building inspection (ITE)", inspection(property)],
];

export function EnrichedData({ property, enriching }: { property: Property; enriching: boolean }) {
  const sections = sectionsOf(property);
  return (
    <Card title="Enriched data" className="lg:col-span-3">
      {property.status === "not_found" ? (
        <div className="text-sm text-slate-700" data-testid="not-found">
          <p className="font-medium text-slate-900">The cadastre has no property with this reference.</p>
          <p className="mt-1">
            Nothing else was looked up: certificates and inspections are found through the cadastre&apos;s answer. Check
            the reference against the deed or the{" "}
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
  );
}
