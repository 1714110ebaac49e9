// The generated OpenAPI document passes Redocly's recommended-strict rules and every rule of Spectral's
// spectral:oas (`all`) with zero errors and zero warnings, as outside tools (and partners' generators)
// read it, for a deployment that says where it is and who answers (PUBLIC_BASE_URL, SUPPORT_EMAIL:
// the contact's url and email and the licence's url come from them).
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, expect, it } from "vitest";
import { binOf, ROOT, writeOpenApiFile } from "../support/openapi-file";

const run = promisify(execFile);
let file: string;
beforeAll(() => {
  // The path .redocly.lint-ignore.yaml names.
  file = writeOpenApiFile("openapi.json", {
    PUBLIC_BASE_URL: "https://api.finca.example",
    SUPPORT_EMAIL: "partners@finca.example",
  });
});

// Offline machine: no telemetry, no update checks.
const env = {
  ...process.env,
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  NO_UPDATE_NOTIFIER: "1",
};

async function output(bin: string, args: string[]) {
  // Both tools exit non-zero on findings; their report is what the test reads.
  return run(process.execPath, [bin, ...args], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 }).catch(
    (error: { stdout: string; stderr: string }) => error,
  );
}

it("Redocly (recommended-strict): no errors, no warnings", async () => {
  const { stdout, stderr } = await output(await binOf("@redocly/cli", "redocly"), ["lint", file, "--format=json"]);
  const report = JSON.parse(stdout.slice(stdout.indexOf("{"))) as {
    totals: { errors: number; warnings: number; ignored: number };
    problems: { ruleId: string; message: string }[];
  };
  expect(
    report.problems.map((p) => `${p.ruleId}: ${p.message}`),
    stderr,
  ).toEqual([]);
  // The one documented exception (.redocly.lint-ignore.yaml), and nothing else ignored.
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0, ignored: 1 });
}, 120_000);

it("Spectral (spectral:oas, all rules): no errors, no warnings", async () => {
  const { stderr } = await output(await binOf("@stoplight/spectral-cli", "spectral"), [
    "lint",
    file,
    "--ruleset",
    ".spectral.yaml",
    "--format",
    "json",
    "--output",
    ".openapi/spectral.json",
  ]);
  const findings = JSON.parse(readFileSync(path.join(ROOT, ".openapi/spectral.json"), "utf8")) as {
    code: string;
    message: string;
    path: string[];
  }[];
  expect(
    findings.map((f) => `${f.code}: ${f.message} at ${f.path.join(".")}`),
    stderr,
  ).toEqual([]);
}, 120_000);
