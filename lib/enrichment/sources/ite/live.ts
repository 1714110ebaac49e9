// Live ITE. First the regional rule (./rules): a building younger than its community's confirmed
// first-inspection age is `not_required`, without a request. Otherwise a registry is asked only
// where one can be queried by cadastral reference:
// - Catalonia's CEE dataset, whose `informe_ins_tecnica_edifici` holds the code of the building's
//   IITE: a code on any certificate of the parcel is `found` (evidence an inspection exists; the
//   dataset does not give its result), none is `not_found`;
// - the Comunitat Valenciana's IEE.CV register (GESIEE WFS, ../registries/gesiee.ts): the newest
//   report of the parcel is `found`, with its number and the date it expires (the next one is due);
//   urgent interventions not carried out make the result `unfavourable`; no report is `not_found`.
// Which provinces each answers is the region table's (lib/registers/regions.ts, `routes`). Madrid's
// and Barcelona's ITE lists are keyed by address, the Basque, Asturian and Galician registries have
// no open access: everywhere else the answer is `unsupported`, also when the rule is unconfirmed or
// the year of construction unknown (nothing could be looked up).
import { ccaaForProvince } from "@/lib/reference-data";
import { PROVIDERS, type IteFinding, type IteSource, type LiveRoutes } from "../types";
import { liveClient, type LiveClientOptions, type Outcome } from "../http";
import {
  CATALONIA_BASE_URL,
  CATALONIA_REGISTRY,
  cataloniaIiteRow,
  type CataloniaClient,
} from "../registries/catalonia";
import { isoDate } from "../registries/fields";
import { GESIEE_BASE_URL, GESIEE_REGISTRY, gesieeReports, type GesieeReport } from "../registries/gesiee";
import { iteRequirement } from "./rules";

export interface LiveIteOptions extends LiveClientOptions {
  /** Socrata host of the Catalan CEE dataset. Default: analisi.transparenciacatalunya.cat. */
  cataloniaBaseUrl?: string;
  /** Socrata app token for the Catalan dataset (SOCRATA_APP_TOKEN). */
  socrataAppToken?: string;
  /** The GVA GESIEE WFS endpoint. Default: terramapas.icv.gva.es/0801_GESIEE. */
  valenciaBaseUrl?: string;
  /** The date building ages are counted at (tests); default now. */
  now?: () => Date;
  /** Province → the provider that answers there (the region table's). */
  routes: LiveRoutes["ite"];
}

/** Newest first by expiry (the layer has no documented order). */
const newestReport = (a: GesieeReport, b: GesieeReport) =>
  (isoDate(b.fecha_caducidad) ?? "").localeCompare(isoDate(a.fecha_caducidad) ?? "");

async function catalonia(client: CataloniaClient, parcel: string): Promise<Outcome<IteFinding>> {
  const row = await cataloniaIiteRow(client, parcel);
  const code = typeof row?.informe_ins_tecnica_edifici === "string" ? row.informe_ins_tecnica_edifici.trim() : "";
  if (!code) return { kind: "not_found", provider: PROVIDERS.catalonia, summary: { registry: CATALONIA_REGISTRY } };
  // The IITE code evidences an inspection; the dataset gives neither its date nor its result
  // (the row's date is the energy certificate's, kept for operators in the summary).
  return {
    kind: "found",
    data: { status: "found", registry: CATALONIA_REGISTRY, reference: code },
    provider: PROVIDERS.catalonia,
    summary: {
      registry: CATALONIA_REGISTRY,
      certificate_id: row?.num_cas ?? null,
      reported_on: isoDate(row?.data_entrada),
    },
  };
}

async function valencia(base: string, parcel: string, timeoutMs: number): Promise<Outcome<IteFinding>> {
  const [report] = (await gesieeReports(base, parcel, timeoutMs)).sort(newestReport);
  if (!report) return { kind: "not_found", provider: PROVIDERS.gesiee, summary: { registry: GESIEE_REGISTRY } };
  const urgent = Number(report.count_intu);
  const pending = Number.isFinite(urgent) && urgent > 0 && /sin ejecutar/i.test(report.estado_intu ?? "");
  return {
    kind: "found",
    data: {
      status: "found",
      registry: GESIEE_REGISTRY,
      reference: typeof report.inf_numieevcv === "string" ? report.inf_numieevcv.trim() || null : null,
      nextDueOn: isoDate(report.fecha_caducidad),
      result: pending ? "unfavourable" : null,
    },
    provider: PROVIDERS.gesiee,
    summary: {
      registry: GESIEE_REGISTRY,
      urgent_interventions: report.count_intu ?? null,
      urgent_state: report.estado_intu ?? null,
      assessed: report.evaluado ?? null,
    },
  };
}

export function createLiveIte(options: LiveIteOptions): IteSource {
  const { timeoutMs, ask } = liveClient(options);
  const cataloniaClient: CataloniaClient = {
    base: options.cataloniaBaseUrl ?? CATALONIA_BASE_URL,
    timeoutMs,
    appToken: options.socrataAppToken,
  };
  const valenciaBase = options.valenciaBaseUrl ?? GESIEE_BASE_URL;
  const clients: Record<string, (parcel: string) => Promise<Outcome<IteFinding>>> = {
    [PROVIDERS.catalonia]: (parcel) => catalonia(cataloniaClient, parcel),
    [PROVIDERS.gesiee]: (parcel) => valencia(valenciaBase, parcel, timeoutMs),
  };
  const unknown = [...new Set(options.routes.values())].filter((p) => !Object.hasOwn(clients, p));
  if (unknown.length) throw new Error(`no live ITE client for ${unknown.join(", ")}`);
  return {
    async lookup(input) {
      const { reference, facts } = input;
      const ccaa = facts.provinceCode ? ccaaForProvince(facts.provinceCode) : null;
      const requirement = iteRequirement({ ccaa, yearBuilt: facts.yearBuilt, now: options.now?.() });
      if (requirement === "not_required")
        return {
          kind: "found",
          data: { status: "not_required" },
          provider: PROVIDERS.rules,
          summary: { ccaa, year_built: facts.yearBuilt },
        };
      const provider = options.routes.get(facts.provinceCode ?? "");
      if (!provider) {
        const summary = { ccaa, requirement, reason: "no_registry_by_reference" };
        return { kind: "found", data: { status: "unsupported" }, provider: PROVIDERS.rules, summary };
      }
      // The inspection is of the building: one answer serves every unit of the parcel, so what
      // depends on the unit (its requirement) is added after the shared lookup, not cached.
      const parcel = reference.slice(0, 14);
      const outcome = await ask<IteFinding>(`ite:${provider}:${parcel}`, input, provider, () =>
        clients[provider]!(parcel),
      );
      return outcome.kind === "error" ? outcome : { ...outcome, summary: { ...outcome.summary, requirement } };
    },
  };
}
