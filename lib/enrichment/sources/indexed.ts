// Index first: a record of the local register index (a copy of an open dataset) answers before the
// live registry is asked; without one the live source answers as before (and, where no registry
// exists, the estimate or the ITE rules). Live mode only: test mode keeps the sandbox.
import { addressKey } from "@/lib/addresses";
import { sqlState } from "@/lib/domain";
import { propertyUnit } from "./registries/fields";
import {
  indexProvider,
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
async function indexFirst<T>(
  ask: () => Promise<IndexHit<T> | null>,
  found: (hit: IndexHit<T>) => SourceOutcome<T>,
  live: () => Promise<SourceOutcome<T>>,
): Promise<SourceOutcome<T>> {
  let hit: IndexHit<T> | null;
  try {
    hit = await ask();
  } catch (error) {
    const outcome = await live();
    const code = sqlState(error);
    const failure = code ? `index query failed (SQLSTATE ${code})` : (error as Error).message;
    return outcome.kind === "error" ? outcome : { ...outcome, summary: { ...outcome.summary, index_error: failure } };
  }
  return hit ? found(hit) : live();
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
