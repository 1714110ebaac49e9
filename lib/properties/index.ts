// Properties: all their persistence (create, durable runs, reads) around the enrichment engine.
export { propertiesCsv, PROPERTY_CSV_HEADER } from "./export";
export { getProperty, listProperties, propertiesById, toProperty, type ListOptions, type PropertyPage } from "./read";
export {
  createProperty,
  CreatePropertyInput,
  referenceOf,
  registeredIdSql,
  type CreateOptions,
  type PropertiesDeps,
  type Registration,
} from "./register";
export { registerReferences, type Registered } from "./register-many";
export { runEnrichmentJob, runEnrichmentJobs, type EnrichJob } from "./enrich-run";
