// What counts as the property's certificate in a registry asked live, whichever it is: the newest
// one registered under its unit reference; failing that, one registered under the bare
// 14-character parcel (a certificate of the whole building). A certificate of another unit of the
// building is not this property's. A record whose letter is not A-G is no usable certificate.
import type { CertificateScope } from "@/lib/domain";
import type { LiveProvider, RegistryCertificate, SourceOutcome } from "../types";
import { ratingLetter } from "./fields";

/** No usable certificate: the rows seen without an A-G letter are counted for operators. */
export const noCertificate = (provider: LiveProvider, registry: string, unusable: number): SourceOutcome<never> => ({
  kind: "not_found",
  provider,
  summary: { registry, ...(unusable ? { unusable_records: unusable } : {}) },
});

/** A certificate found at `scope`. */
export const foundCertificate = (
  provider: LiveProvider,
  data: RegistryCertificate,
  scope: CertificateScope,
): SourceOutcome<RegistryCertificate> => ({
  kind: "found",
  data,
  provider,
  summary: { registry: data.registry, scope },
});

/** How one registry's rows read: its provider and registry label, its headline letter, its certificate. */
export interface RowRegistry<R> {
  provider: LiveProvider;
  registry: string;
  letter: (row: R) => unknown;
  certificate: (row: R, scope: CertificateScope) => RegistryCertificate;
}

/**
 * The unit's rows, else the building's (a null ask is skipped), each newest first: the first row
 * with an A-G letter is the certificate; rows without one are counted in the not_found summary.
 */
export async function unitThenBuilding<R>(
  registry: RowRegistry<R>,
  asks: readonly (readonly [CertificateScope, (() => Promise<R[]>) | null])[],
): Promise<SourceOutcome<RegistryCertificate>> {
  let unusable = 0;
  for (const [scope, ask] of asks) {
    if (!ask) continue;
    const rows = await ask();
    const row = rows.find((r) => ratingLetter(registry.letter(r)));
    if (row) return foundCertificate(registry.provider, registry.certificate(row, scope), scope);
    unusable += rows.length;
  }
  return noCertificate(registry.provider, registry.registry, unusable);
}
