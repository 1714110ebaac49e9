// The partner API (HTTP): plain `(Request) => Promise<Response>` handlers over narrow dependencies,
// derived from one table of operations. No Next.js here: tests call the handlers directly and any
// server can host them.
export { createPartnerApi, type PartnerApi } from "./api";
export { BASE_PATH } from "./operation";
export { openApiDocument, operations } from "./operations";
export { STATUS_OF_CODE } from "./errors";
export { MAX_BODY_BYTES } from "./request";
export type { ApiDeps } from "./operation";
