import { availableParallelism } from "node:os";
import { expect, it } from "vitest";
import { loadConfig } from ".";

it("leaves a core to the API: password checks at once default to one fewer than the cores, at least one", () => {
  const cores = availableParallelism();
  expect(loadConfig({}).PASSWORD_CHECKS_CONCURRENT).toBe(Math.max(1, cores - 1));
  expect(loadConfig({}).PASSWORD_CHECKS_CONCURRENT).toBeLessThan(Math.max(2, cores));
  expect(loadConfig({ PASSWORD_CHECKS_CONCURRENT: "3" }).PASSWORD_CHECKS_CONCURRENT).toBe(3);
});

it("lets V8 grow a heap by half past its live data unless told otherwise (0: V8's own choice)", () => {
  expect(loadConfig({}).HEAP_GROWING_PERCENT).toBe(50);
  expect(loadConfig({ HEAP_GROWING_PERCENT: "0" }).HEAP_GROWING_PERCENT).toBe(0);
  expect(() => loadConfig({ HEAP_GROWING_PERCENT: "-1" })).toThrow(/HEAP_GROWING_PERCENT/);
});

it("refuses a timeout node's timers cannot hold (past 2^31 ms they fire after 1 ms), naming the setting", () => {
  const refused: [string, string][] = [
    ["READY_TIMEOUT_MS", "2147483648"],
    ["WEBHOOK_TIMEOUT_MS", "2147483648"],
    ["UPSTASH_TIMEOUT_MS", "2147483648"],
    ["REGISTER_DOWNLOAD_TIMEOUT_MS", "2147483648"],
    ["JOB_EXPIRE_SECONDS", "86400"],
  ];
  for (const [name, value] of refused) expect(() => loadConfig({ [name]: value }), name).toThrow(name);
});
