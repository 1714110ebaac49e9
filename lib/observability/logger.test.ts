import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase } from "@/test/support/database";
import { errorFields } from "./logger";

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
