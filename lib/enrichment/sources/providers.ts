// Who answers a lookup, as a closed set: the engine's own providers, each live register's, and the
// local index of a dataset (`index:<dataset>`). The live registers are modules of lib/registers,
// which this floor may not import: their providers are listed here, each module names its own from
// this list (`satisfies LiveProvider`), and test/registers/providers.test.ts checks that the
// register list and this list agree.
import { z } from "zod";

/** Providers the engine names itself. */
export const PROVIDERS = {
  catastro: "catastro-ovc",
  rules: "rules",
  estimate: "estimate",
  sandbox: "sandbox",
} as const;
export type EngineProvider = (typeof PROVIDERS)[keyof typeof PROVIDERS];

/**
 * The live registers' providers (lib/registers/<id>/ names each in its module). The cadastre's is
 * the engine's own client too (PROVIDERS.catastro).
 */
export const LIVE_PROVIDERS = ["catastro-ovc", "icaen-socrata", "gva-wfs", "gva-gesiee", "aragon-gaodcore"] as const;
export type LiveProvider = (typeof LIVE_PROVIDERS)[number];

/** An index answer: the dataset (or cadastre copy source) that held it, lower-case words joined by hyphens. */
export type IndexProvider = `index:${string}`;
const INDEX_PROVIDER = /^index:[a-z0-9]+(-[a-z0-9.]+)*$/;

export type Provider = EngineProvider | LiveProvider | IndexProvider;

/** The provider name of an index answer: `index:<dataset>`. */
export const indexProvider = (dataset: string): IndexProvider => `index:${dataset}`;

/** A provider as stored (the attempt log's and a source's state's text), decoded. */
export const Provider = z.union([
  z.enum([...new Set([...Object.values(PROVIDERS), ...LIVE_PROVIDERS])]),
  z.custom<IndexProvider>((value) => typeof value === "string" && INDEX_PROVIDER.test(value), {
    error: "not a provider: an engine's, a live register's or index:<dataset>",
  }),
]);
