// The partner API over its dependencies: one bound handler per operation (by operation id) and a
// dispatcher that routes any request by method and path, answering 404 and 405 as problem+json.
// No server here: Next.js (server/partner-api.ts), the lean node:http server (./node-server.ts)
// and the tests all call these.
import { DomainError } from "@/lib/domain";
import { problemAnswer } from "./errors";
import { requestIdOf, responseOf, type Answer } from "./request";
import { report, route } from "./route";
import { operations, type OperationId } from "./operations";
import { BASE_PATH, type ApiDeps, type ApiLogger, type Handler, type Method } from "./operation";

export interface PartnerApi extends Record<OperationId, (req: Request) => Promise<Response>> {
  /**
   * Any request under the base path: routed to its operation, else 404 or 405. `method` is the
   * request's when a Request cannot carry it (fetch refuses TRACE).
   */
  dispatch(req: Request, method?: string): Promise<Response>;
  /** `dispatch`'s answer before it is a Response: for a server that writes it itself (./node-server.ts). */
  answer(req: Request, method?: string): Promise<Answer>;
  /** Where the server adapters report a failure outside any operation. */
  logger: ApiLogger;
}

const METHOD_ORDER: readonly Method[] = ["GET", "POST", "PATCH", "DELETE"];

interface Path {
  pattern: RegExp;
  names: string[];
  methods: Map<string, Handler>;
}

/** `/properties/{id}` → a pattern with one group per parameter; a trailing slash is allowed. */
function compile(template: string): Pick<Path, "pattern" | "names"> {
  const names: string[] = [];
  const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return { pattern: new RegExp(`^${BASE_PATH}${source}/?$`), names };
}

function paramsOf(path: Pick<Path, "pattern" | "names">, pathname: string): Record<string, string> {
  const match = path.pattern.exec(pathname);
  return Object.fromEntries(path.names.map((name, i) => [name, match?.[i + 1] ?? ""]));
}

/** A problem answer outside any operation (unknown path, or a method the path does not have). */
function refuse(deps: ApiDeps, req: Request, error: DomainError, headers: Record<string, string> = {}): Answer {
  const ctx = { requestId: requestIdOf(req), startedAt: Date.now() };
  const answer = problemAnswer(error, ctx.requestId, { ...headers, "X-Request-Id": ctx.requestId });
  report(deps, req, ctx, { operationId: null, status: answer.status, principal: null, error });
  return answer;
}

export function createPartnerApi(deps: ApiDeps): PartnerApi {
  const paths: Path[] = [];
  const byId = {} as Record<OperationId, (req: Request) => Promise<Response>>;
  for (const op of operations) {
    const handler = route(deps, op);
    const compiled = compile(op.path);
    let path = paths.find((p) => p.pattern.source === compiled.pattern.source);
    if (!path) paths.push((path = { ...compiled, methods: new Map() }));
    path.methods.set(op.method, handler);
    byId[op.id] = async (req) => responseOf(await handler(req, paramsOf(compiled, new URL(req.url).pathname)));
  }
  const answer = async (req: Request, method = req.method): Promise<Answer> => {
    const pathname = new URL(req.url).pathname;
    const path = paths.find((p) => p.pattern.test(pathname));
    if (!path) return refuse(deps, req, new DomainError("not_found", `No operation at ${pathname}.`));
    // HEAD is answered as GET (servers drop the body).
    const handler = path.methods.get(method === "HEAD" ? "GET" : method);
    if (handler) return handler(req, paramsOf(path, pathname));
    const methods = METHOD_ORDER.filter((m) => path.methods.has(m));
    const allow = (methods.includes("GET") ? [...methods, "HEAD"] : methods).join(", ");
    return refuse(deps, req, new DomainError("method_not_allowed", `This path answers only ${allow}.`), {
      Allow: allow,
    });
  };
  return {
    ...byId,
    logger: deps.logger,
    answer,
    dispatch: async (req, method) => responseOf(await answer(req, method)),
  };
}
