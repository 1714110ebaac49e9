// Index first: a record of the local register index (a copy of an open dataset) answers before the
// live registry is asked; without one the live source answers as before (and, where no registry
// exists, the estimate or the ITE rules). Live mode only: test mode keeps the sandbox.
import { addressKey } from "@/lib/addresses";
import { messageOf, sqlState } from "@/lib/domain";
import { propertyUnit } from "./registries/fields";
import {
  indexProvider,
  type CadastreSource,
  type EnergyCertificateSource,
  type IndexHit,
  type IteSource,
  type RegisterIndex,
  type SourceOutcome,
} from "./types";

const summaryOf = (hit: IndexHit<unknown>, extra: Record<string, unknown>) => ({
  ...extra,
  dataset: hit.dataset,
  as_of: hit.asOf,
  retrieved_at: hit.retrievedAt,
  licence: hit.licence,
  attribution: hit.attribution,
  source_row: hit.sourceRow,
});

/**
 * The index is a database read: if it fails, the live registry still answers, and the failure is
 * named in that answer's summary for operators, by its SQLSTATE when it has one (a failed query's
 * message quotes its parameters).
 */
async function indexFirst<H, T>(
  ask: () => Promise<H | null>,
  found: (hit: H) => SourceOutcome<T>,
  live: () => Promise<SourceOutcome<T>>,
): Promise<SourceOutcome<T>> {
  let hit: H | null;
  try {
    hit = await ask();
  } catch (error) {
    const outcome = await live();
    const code = sqlState(error);
    const failure = code ? `index query failed (SQLSTATE ${code})` : messageOf(error);
    return outcome.kind === "error" ? outcome : { ...outcome, summary: { ...outcome.summary, index_error: failure } };
  }
  return hit ? found(hit) : live();
}

/**
 * The cadastre from Catastro's bulk copies when they hold the reference whole (no Catastro request:
 * the point of the copies at portfolio scale), else the live register. The provider names the copy
 * that answered the reference's own facts (`index:catastro-cat` for a unit, `index:catastro-inspire`
 * for a parcel); the summary lists every copy used with its date.
 */
export function indexedCadastre(index: RegisterIndex, live: CadastreSource): CadastreSource {
  return {
    lookup(input) {
      return indexFirst(
        () => index.cadastre(input.reference),
        (hit) => ({
          kind: "found",
          data: hit.facts,
          provider: indexProvider(hit.answeredBy[0]!.source),
          summary: {
            units: hit.facts.units ?? 1,
            province: hit.facts.provinceCode,
            municipality: hit.facts.municipalityCode,
            copies: hit.answeredBy.map((c) => ({ dataset: c.source, municipality: c.municipality, as_of: c.asOf })),
          },
        }),
        () => live.lookup(input),
      );
    },
  };
}

export function indexedEnergyCertificate(index: RegisterIndex, live: EnergyCertificateSource): EnergyCertificateSource {
  return {
    lookup(input) {
      const parcel = input.reference.slice(0, 14);
      const unit = propertyUnit(input.reference, input.facts.reference)?.slice(0, 18) ?? null;
      return indexFirst(
        () => index.certificate({ parcel, unit }),
        (hit) => ({
          kind: "found",
          data: hit.data,
          provider: indexProvider(hit.dataset),
          summary: summaryOf(hit, { registry: hit.data.registry, scope: hit.data.scope }),
        }),
        () => live.lookup(input),
      );
    },
  };
}

export function indexedIte(index: RegisterIndex, live: IteSource): IteSource {
  return {
    lookup(input) {
      const { street, municipalityCode } = input.facts;
      const address = street && municipalityCode ? addressKey({ municipalityCode, ...street }) : null;
      return indexFirst(
        () => index.inspection({ parcel: input.reference.slice(0, 14), addressKey: address }),
        (hit) => ({
          kind: "found",
          data: hit.data,
          provider: indexProvider(hit.dataset),
          summary: summaryOf(hit, { registry: hit.data.registry ?? null }),
        }),
        () => live.lookup(input),
      );
    },
  };
}
