import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase } from "@/test/support/database";
import { createLogger, errorFields, flatLogger } from "./logger";

describe("errorFields", () => {
  it("keeps a database error's statement and SQLSTATE but never its values", async () => {
    const testDb = await createTestDatabase();
    const { database } = testDb;
    try {
      const failed = await database.db.execute(sql`select ${"s3cr3t-row-value"}::int`).catch((error: unknown) => error);
      const fields = errorFields(failed);
      expect(fields.error).toBe("Failed query: select $1::int (SQLSTATE 22P02)");
      expect(JSON.stringify(fields)).not.toContain("s3cr3t-row-value");
    } finally {
      await testDb.drop();
    }
  });

  it("names the class of any error, and takes anything thrown as text", () => {
    expect(errorFields(new TypeError("bad"))).toEqual({ error: "bad", errorClass: "TypeError" });
    expect(errorFields("plain")).toEqual({ error: "plain" });
  });
});

describe("flatLogger", () => {
  it("writes a line of flat fields as the logger does, secrets' names redacted", () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk).replace(/,"time":\d+/, ""));
        done();
      },
    });
    const logger = createLogger({ level: "info", format: "json", destination });
    const fields = { requestId: "req_1", path: '/a"b\\c\u0001', status: 201, partnerId: null, key: "k", apiKey: "s" };
    logger.info({ ...fields }, "request");
    flatLogger(logger).info({ ...fields }, "request");
    expect(lines[1]).toBe(lines[0]);
    expect(JSON.parse(lines[0]!)).toMatchObject({ key: "[redacted]", apiKey: "[redacted]", path: fields.path });
  });
});
