import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseApiKey } from "@/lib/api-keys";
import { NEVER_MS } from "./support/bounds";
import { runNode, stopAll } from "./support/processes";

// The operator CLI as `npm run finca` runs it (node with tsx's loader, without npm around it), on a
// fresh data folder: each run starts the folder's embedded PostgreSQL and stops it (a second or two on
// an idle machine, more on a new folder). The tests run in order on that folder; only a run that
// hangs is stopped (NEVER_MS).
let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "finca-cli-"));
});
afterEach(stopAll);
afterAll(() => rm(dir, { recursive: true, force: true }));

const finca = (...args: string[]) =>
  runNode("scripts/finca.ts", args, { env: { FINCA_DATA_DIR: dir, DATABASE_URL: undefined }, timeoutMs: NEVER_MS });
const lastLine = (text: string) => text.trim().split("\n").at(-1)!;

describe.sequential("finca CLI", () => {
  let key = "";
  let list = "";

  it("keys create prints the new key alone as the last line, in the mode asked for", async () => {
    const created = await finca("keys", "create", "--partner", "Acme", "--mode", "test");
    expect(created.code, created.stderr).toBe(0);
    key = lastLine(created.stdout);
    expect(parseApiKey(key)).toEqual({ mode: "test", key });

    // Live keys wait for live mode, which the operator grants.
    const early = await finca("keys", "create", "--partner", "Acme", "--mode", "live");
    expect([early.code, early.stderr]).toEqual([1, expect.stringContaining("Live keys need live access")]);
    expect((await finca("partners", "live", "--partner", "Acme", "--grant")).stdout).toContain("granted");
    const again = await finca("keys", "create", "--partner", "Acme", "--mode", "live");
    expect(parseApiKey(lastLine(again.stdout))?.mode).toBe("live");
  });

  it("partners list counts the partner's keys; keys list shows their visible start", async () => {
    expect((await finca("partners", "list")).stdout).toMatch(/'Acme'.*│ 0 +│ 2 +│ 0/);
    list = (await finca("keys", "list", "--partner", "Acme")).stdout;
    expect(list).toContain(key.slice(0, 17));
  });

  it("keys revoke revokes a key by its id", async () => {
    const id = /'([0-9a-f-]{36})' │ 'finca_test_/.exec(list)![1]!;
    expect((await finca("keys", "revoke", id)).stdout).toContain("Revoked");
  });

  it("audit list shows what the operator did, keys by their visible start only", async () => {
    const listed = await finca("audit", "list", "--partner", "Acme");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("api_key.created");
    expect(listed.stdout).toContain("api_key.revoked");
    expect(listed.stdout).toContain("operator (CLI)");
    expect(listed.stdout).not.toContain(key);
    expect((await finca("audit", "list", "--area", "nothing")).code).toBe(2);
  });

  it("a usage error exits 2 and says what is wrong, and makes nothing", async () => {
    const bad = await finca("keys", "create", "--partner", "Ghost", "--mode", "prod");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--mode must be one of test, live");
    const live = await finca("keys", "create", "--partner", "Ghost", "--mode", "live");
    expect([live.code, live.stderr]).toEqual([2, expect.stringContaining('no partner named "Ghost"')]);
    expect((await finca("partners", "list")).stdout).not.toContain("Ghost");
  });

  it("users create holds to the portal's rules for an email and a password, one account an email", async () => {
    const create = (...extra: string[]) =>
      finca("users", "create", "--role", "operator", "--password", "long enough pw", ...extra);
    expect((await create("--email", "notanemail")).stderr).toContain("Enter a valid email address.");
    const short = await finca("users", "create", "--role", "operator", "--email", "op@finca.test", "--password", "x");
    expect([short.code, short.stderr]).toEqual([2, expect.stringContaining("at least")]);
    expect((await create("--email", "op@finca.test", "--partner", "Acme")).stderr).toContain("no partner");
    expect((await create("--email", "op@finca.test")).code).toBe(0);
    const twice = await create("--email", "OP@finca.test");
    expect([twice.code, twice.stderr]).toEqual([2, expect.stringContaining("exists already")]);
    expect(twice.stderr).not.toContain("argon2");
    // In the security history, as the operator's other user commands are.
    const history = (await finca("audit", "list", "--area", "user")).stdout;
    expect(history).toMatch(/user\.created.*op@finca\.test/);
  });
});
