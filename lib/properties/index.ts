// Properties: all their persistence (create, durable runs, reads) around the enrichment engine.
export { getProperty, listProperties, toProperty, type ListOptions, type PropertyPage } from "./read";
export {
  normalisedReference,
  registeredIdSql,
  registerProperty,
  registerReference,
  type PropertiesDeps,
  type Registration,
} from "./register";
export { runEnrichmentJob, type EnrichJob } from "./enrich-run";
