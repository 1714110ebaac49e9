// The contract as an oracle for the fuzz tests: which statuses a request may get (from the OpenAPI
// document, so the document is checked too) and what every answer must look like.
import { expect } from "vitest";
import { loadConfig } from "@/lib/config";
import type { ErrorCode } from "@/lib/domain";
import { openApiDocument } from "@/lib/partner-api";

export const BASE_PATH = "/api/v1/partner-api";

type Operations = Record<string, { responses: Record<string, unknown> } | undefined>;
const paths = (openApiDocument(loadConfig({})) as { paths: Record<string, Operations> }).paths;
const templates = Object.keys(paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+").replaceAll(".", "\\.")}/?$`),
}));

/** The problem code of each error status (the contract's, plus 405 from the errors page). */
export const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: "invalid_cadastral_reference",
  401: "missing_api_key",
  404: "not_found",
  405: "method_not_allowed",
  409: "too_many_active_batches",
  422: "validation_error",
  429: "rate_limited",
};

/** The methods a path of the API answers (HEAD wherever GET is), or null for an unknown path. */
export function methodsOf(pathname: string): string[] | null {
  if (!pathname.startsWith(`${BASE_PATH}/`)) return null;
  const rest = pathname.slice(BASE_PATH.length);
  if (rest === "/openapi.json") return ["GET", "HEAD"];
  const path = templates.find((t) => t.pattern.test(rest));
  if (!path) return null;
  const methods = Object.keys(paths[path.template]!).map((m) => m.toUpperCase());
  return methods.includes("GET") ? [...methods, "HEAD"] : methods;
}

/** Statuses a request may get: the operation's documented responses, 405 for a path's other methods, else 404. */
export function allowedStatuses(method: string, pathname: string): number[] {
  const methods = methodsOf(pathname);
  if (!methods) return [404];
  if (!methods.includes(method)) return [405];
  if (pathname === `${BASE_PATH}/openapi.json`) return [200];
  const rest = pathname.slice(BASE_PATH.length);
  const template = templates.find((t) => t.pattern.test(rest))!.template;
  return Object.keys(paths[template]![method === "HEAD" ? "get" : method.toLowerCase()]!.responses).map(Number);
}

export interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

export const answerOf = async (res: Response): Promise<Answer> => ({
  status: res.status,
  headers: res.headers,
  body: await res.text(),
});

/**
 * Never a 5xx; a status the contract allows for this method and path (and, when the case says
 * exactly, one of those); every answer has a request id (the sent one when it is sane); errors are
 * problem+json with the status's code and that id.
 */
export function expectContractAnswer(
  answer: Answer,
  expected: { method: string; pathname: string; statuses?: number[]; requestId?: string; saneRequestId?: boolean },
) {
  const context = `${expected.method} ${expected.pathname} → ${answer.status} ${answer.body.slice(0, 300)}`;
  expect(answer.status, context).toBeLessThan(500);
  expect(allowedStatuses(expected.method, expected.pathname), context).toContain(answer.status);
  if (expected.statuses) expect(expected.statuses, context).toContain(answer.status);
  const requestId = answer.headers.get("x-request-id");
  // Header values lose surrounding spaces and tabs on the way in.
  const sent = expected.requestId?.replace(/^[\t ]+|[\t ]+$/g, "");
  if (expected.saneRequestId) expect(requestId, context).toBe(sent);
  else if (requestId !== sent) expect(requestId, context).toMatch(/^req_[0-9a-f]{32}$/);
  const type = answer.headers.get("content-type") ?? "";
  if (expected.method === "HEAD") {
    expect(answer.body, context).toBe("");
  } else if (answer.status >= 400) {
    expect(type, context).toMatch(/^application\/problem\+json/);
    const code = CODE_OF_STATUS[answer.status]!;
    expect(JSON.parse(answer.body), context).toMatchObject({
      type: `/docs/errors#${code}`,
      title: expect.any(String),
      status: answer.status,
      detail: expect.any(String),
      code,
      request_id: requestId,
    });
  } else if (answer.status !== 204) {
    expect(type, context).toMatch(/^application\/json/);
    JSON.parse(answer.body);
  }
  if (answer.status === 201)
    expect(answer.headers.get("location"), context).toMatch(new RegExp(`^${BASE_PATH}/[a-z-]+/[0-9a-f-]{36}$`));
  if (answer.status === 405) expect(answer.headers.get("allow"), context).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
  if (answer.status === 429) expect(answer.headers.get("retry-after"), context).toMatch(/^\d+$/);
}
