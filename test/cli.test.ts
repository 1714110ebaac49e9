import { afterAll, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parseApiKey } from "@/lib/api-keys";

// The operator CLI exactly as documented, on a fresh PGlite folder.
const run = promisify(execFile);
let dir = "";
afterAll(() => rm(dir, { recursive: true, force: true }));

const finca = async (...args: string[]) => {
  const env = { ...process.env, FINCA_DATA_DIR: dir };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  return run("npm", ["run", "--silent", "finca", "--", ...args], { env, timeout: 60_000 }).catch((e) => e);
};

it("keys create prints the new key alone as the last line; list, partners list, revoke and usage errors work", async () => {
  dir = await mkdtemp(path.join(tmpdir(), "finca-cli-"));
  const created = await finca("keys", "create", "--partner", "Acme", "--mode", "test");
  const key = String(created.stdout).trim().split("\n").at(-1)!;
  expect(parseApiKey(key)).toEqual({ mode: "test", key });

  const again = await finca("keys", "create", "--partner", "Acme", "--mode", "live");
  expect(parseApiKey(String(again.stdout).trim().split("\n").at(-1)!)?.mode).toBe("live");

  const partners = String((await finca("partners", "list")).stdout);
  expect(partners).toMatch(/'Acme'.*│ 0 +│ 2 +│ 0/);

  const list = String((await finca("keys", "list", "--partner", "Acme")).stdout);
  expect(list).toContain(key.slice(0, 17));
  const id = /'([0-9a-f-]{36})' │ 'finca_test_/.exec(list)![1]!;
  expect(String((await finca("keys", "revoke", id)).stdout)).toContain("Revoked");

  const bad = await finca("keys", "create", "--partner", "Acme", "--mode", "prod");
  expect(bad.code).toBe(2);
  expect(String(bad.stderr)).toContain("--mode must be one of test, live");
});
