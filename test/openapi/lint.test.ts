// The OpenAPI document passes Redocly's recommended-strict rules and every rule of Spectral's
// spectral:oas (`all`) with zero errors and zero warnings, as outside tools (and partners' generators)
// read it: the document of a deployment that says where it is and who answers (PUBLIC_BASE_URL,
// SUPPORT_EMAIL), and the one GET /openapi.json serves without them, placed on the host it was asked
// on (the contact's url and email and the licence's url come from them, or from that host).
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_PATH } from "@/lib/partner-api/operation";
import { createTestApp, type TestApp } from "../support/app";
import { binOf, ROOT, writeDocumentFile, writeOpenApiFile } from "../support/openapi-file";

const run = promisify(execFile);
let t: TestApp;
// The paths .redocly.lint-ignore.yaml names.
const files = { deployed: "", served: "", local: "" };

/**
 * What GET /openapi.json answers a request asked on `host`, through the API's dispatch as the lean
 * server calls it (its URL on a fixed origin, the Host header as the client sent it).
 */
async function served(host: string): Promise<unknown> {
  const res = await t.api.dispatch(new Request(`http://localhost${BASE_PATH}/openapi.json`, { headers: { host } }));
  expect(res.status).toBe(200);
  return res.json();
}

beforeAll(async () => {
  files.deployed = writeOpenApiFile("openapi.json", {
    PUBLIC_BASE_URL: "https://api.finca.example",
    SUPPORT_EMAIL: "partners@finca.example",
  });
  t = await createTestApp(); // neither PUBLIC_BASE_URL nor SUPPORT_EMAIL
  files.served = writeDocumentFile("served.json", await served("api.finca.example"));
  files.local = writeDocumentFile("served-localhost.json", await served("localhost:4400"));
}, 60_000);
afterAll(() => t?.close());

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

async function redocly(file: string) {
  const { stdout, stderr } = await output(await binOf("@redocly/cli", "redocly"), ["lint", file, "--format=json"]);
  const report = JSON.parse(stdout.slice(stdout.indexOf("{"))) as {
    totals: { errors: number; warnings: number; ignored: number };
    problems: { ruleId: string; message: string }[];
  };
  return { stderr, totals: report.totals, problems: report.problems.map((p) => `${p.ruleId}: ${p.message}`) };
}

async function spectral(file: string) {
  const report = `${file.replace(/\.json$/, "")}.spectral.json`;
  const { stderr } = await output(await binOf("@stoplight/spectral-cli", "spectral"), [
    "lint",
    file,
    "--ruleset",
    ".spectral.yaml",
    "--format",
    "json",
    "--output",
    report,
  ]);
  const findings = JSON.parse(readFileSync(path.join(ROOT, report), "utf8")) as {
    code: string;
    message: string;
    path: string[];
  }[];
  return { stderr, findings: findings.map((f) => `${f.code}: ${f.message} at ${f.path.join(".")}`) };
}

describe.each([
  ["deployed with PUBLIC_BASE_URL and SUPPORT_EMAIL", "deployed"],
  ["served without them, asked on api.finca.example", "served"],
] as const)("the document %s", (_, which) => {
  it("Redocly (recommended-strict): no errors, no warnings", async () => {
    const { stderr, totals, problems } = await redocly(files[which]);
    expect(problems, stderr).toEqual([]);
    // The one documented exception (.redocly.lint-ignore.yaml), and nothing else ignored.
    expect(totals).toMatchObject({ errors: 0, warnings: 0, ignored: 1 });
  }, 120_000);

  it("Spectral (spectral:oas, all rules): no errors, no warnings", async () => {
    const { stderr, findings } = await spectral(files[which]);
    expect(findings, stderr).toEqual([]);
  }, 120_000);
});

// A host with no domain: a server on localhost is one Redocly refuses, and no support mailbox is
// made up for it (so the contact has no email). What a partner's tools see on a real host is above.
describe("the document served without them, asked on localhost", () => {
  it("Redocly finds only that its server is on localhost", async () => {
    const { stderr, problems } = await redocly(files.local);
    expect(problems, stderr).toEqual([
      "no-server-example.com: Server `url` should not point to example.com or localhost.",
    ]);
  }, 120_000);

  it("Spectral finds only that its contact has no email", async () => {
    const { stderr, findings } = await spectral(files.local);
    expect(findings, stderr).toEqual([expect.stringMatching(/^contact-properties: .* at info\.contact$/)]);
  }, 120_000);
});
