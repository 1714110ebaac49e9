// The table of API operations: each entry of the contract (./contract.ts) with its handler
// (./handlers.ts). The Next.js route and the lean server's routing are derived from it, the OpenAPI
// document from the contract alone (./openapi.ts).
import { contract } from "./contract";
import { handlers } from "./handlers";
import { implement } from "./operation";

export const operations = implement(contract, handlers);

export type { OperationId } from "./contract";
export { openApiDocument } from "./openapi";
