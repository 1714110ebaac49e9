import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/domain";
import { toDomainError } from "./errors";

describe("toDomainError", () => {
  const logged = () => {
    const lines: Record<string, unknown>[] = [];
    const logger = { warn: () => {}, error: (fields: Record<string, unknown>) => void lines.push(fields) };
    return { lines, logger };
  };

  it("keeps a domain error as it is, logging nothing", () => {
    const { lines, logger } = logged();
    const error = new DomainError("not_found", "No property.");
    expect(toDomainError(error, "req_1", logger)).toBe(error);
    expect(lines).toEqual([]);
  });

  it("logs a bug as a 500 with its message's keys and URL credentials redacted (a message may quote input)", () => {
    const { lines, logger } = logged();
    const key = `finca_live_${"AbCdEfGhIjKlMnOpQrStUvWxYz0123456789Qz"}`;
    const bug = new TypeError(`cannot read http://admin:hunter2@finca.test/p/${key}`);
    expect(toDomainError(bug, "req_2", logger).code).toBe("internal_error");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      requestId: "req_2",
      error: "cannot read http://[redacted]@finca.test/p/[redacted key]",
      errorClass: "TypeError",
    });
  });
});
