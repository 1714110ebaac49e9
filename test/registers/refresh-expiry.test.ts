// A refresh's job lasts as long as its downloads may; pg-boss refuses 24 h or more, so a start
// whose REGISTER_DOWNLOAD_TIMEOUT_MS would reach it is refused, naming the setting.
import { expect, it } from "vitest";
import { refreshExpirySeconds } from "@/jobs/refresh-registers";
import { loadConfig } from "@/lib/config";

it("refuses a register download timeout that would make a refresh's job last 24 h or more", () => {
  expect(refreshExpirySeconds(loadConfig({}))).toBeLessThan(86_400);
  const urls = "and-junta=https://example.org/a.csv ara-gaodcore=https://example.org/b.csv";
  expect(refreshExpirySeconds(loadConfig({ REGISTER_URLS: urls, REGISTER_DOWNLOAD_TIMEOUT_MS: "43000000" }))).toBe(
    86_300,
  );
  const long = loadConfig({ REGISTER_URLS: urls, REGISTER_DOWNLOAD_TIMEOUT_MS: "44000000" });
  expect(() => refreshExpirySeconds(long)).toThrow(
    /REGISTER_DOWNLOAD_TIMEOUT_MS times the \d+ datasets to refresh must stay under 24 h/,
  );
});
