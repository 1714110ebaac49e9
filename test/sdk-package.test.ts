// The SDK as partners install it: packed by the build (scripts/build.mjs), served by the portal at
// /sdk/<file> with its SHA-256, the URL the docs and the API keys page give; its `engines` hold
// for every package it installs; and nothing tells partners to install `@finca/sdk` by name
// (not on the public registry: whoever published it there would be installed instead). A version's
// bytes never change: a partner's lockfile holds their integrity, so a change ships as a new version.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import semver from "semver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/sdk/[file]/route";
import { sdkPackage, type SdkPackage } from "@/server/sdk-package";
import { NEVER_MS } from "./support/bounds";
import { runNode } from "./support/processes";
// @ts-expect-error: a plain ES module of the build, without types
import { packSdk } from "../scripts/build.mjs";

const get = (file: string) => GET(new Request(`http://finca.test/sdk/${file}`), { params: Promise.resolve({ file }) });

let pkg: SdkPackage;
let dir = "";
beforeAll(async () => {
  await packSdk();
  pkg = (await sdkPackage())!;
  dir = await mkdtemp(path.join(tmpdir(), "finca-sdk-package-"));
}, NEVER_MS);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the SDK's package", () => {
  it("is served with its SHA-256 and npm's integrity at a URL naming its version", async () => {
    const manifest = JSON.parse(await readFile("packages/sdk/package.json", "utf8"));
    expect(pkg).toMatchObject({ name: manifest.name, version: manifest.version });
    expect(pkg.path).toBe(`/sdk/finca-sdk-${manifest.version}.tgz`);
    const answer = await get(pkg.file);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/gzip");
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(pkg.sha256);
    expect(answer.headers.get("repr-digest")).toBe(`sha-256=:${createHash("sha256").update(bytes).digest("base64")}:`);
    // What a lockfile records for it: npm checks the download against this.
    expect(`sha512-${createHash("sha512").update(bytes).digest("base64")}`).toBe(pkg.integrity);
    const sums = await get(`${pkg.file}.sha256`);
    expect(await sums.text()).toBe(`${pkg.sha256}  ${pkg.file}\n`);
    expect((await get("finca-sdk-0.0.1.tgz")).status).toBe(404);
    await writeFile(path.join(dir, pkg.file), bytes);
  });

  it("keeps the bytes its version was released with (packages/sdk/releases.json)", async () => {
    const releases: Record<string, string> = JSON.parse(await readFile("packages/sdk/releases.json", "utf8"));
    const released = releases[pkg.version];
    expect(
      released ?? pkg.integrity,
      `the SDK's package is no longer the ${pkg.version} that partners' lockfiles hold: give it a new version ` +
        "in packages/sdk/package.json and record its integrity in packages/sdk/releases.json",
    ).toBe(pkg.integrity);
    expect(released, `record ${pkg.version}'s integrity in packages/sdk/releases.json: ${pkg.integrity}`).toBeDefined();
  });

  it("holds the library with its types and the finca command, which runs from the package alone", async () => {
    execFileSync("tar", ["xzf", pkg.file], { cwd: dir });
    const unpacked = path.join(dir, "package");
    expect((await readdir(path.join(unpacked, "dist"))).sort()).toEqual(
      ["cli.mjs", "index.d.ts", "index.js", "openapi.d.ts", "openapi.js"].sort(),
    );
    await symlink(path.resolve("node_modules"), path.join(unpacked, "node_modules"), "dir");
    const help = await runNode(path.join(unpacked, "dist", "cli.mjs"), ["--help"], { timeoutMs: NEVER_MS });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain("sandbox refs --count <n>");
  });

  it("declares engines every package it installs accepts", async () => {
    const manifest = JSON.parse(await readFile("packages/sdk/package.json", "utf8"));
    const node = manifest.engines.node as string;
    const seen = new Set<string>();
    const refused: string[] = [];
    // The installed tree as node resolves it here: a package's manifest in the nearest node_modules
    // upwards from its dependant's folder (exports may hide `package.json` from require.resolve).
    const manifestOf = (name: string, from: string): string => {
      for (let folder = from; ; folder = path.dirname(folder)) {
        const file = path.join(folder, "node_modules", name, "package.json");
        if (existsSync(file)) return file;
        if (folder === path.dirname(folder)) throw new Error(`${name} is not installed (from ${from})`);
      }
    };
    const visit = (name: string, from: string) => {
      const file = manifestOf(name, from);
      if (seen.has(file)) return;
      seen.add(file);
      const dependency = JSON.parse(readFileSync(file, "utf8"));
      const wants = dependency.engines?.node;
      if (wants && !semver.subset(node, wants)) refused.push(`${dependency.name}@${dependency.version}: node ${wants}`);
      for (const next of Object.keys(dependency.dependencies ?? {})) visit(next, path.dirname(file));
    };
    for (const name of Object.keys(manifest.dependencies)) visit(name, path.resolve("."));
    expect(seen.size).toBeGreaterThan(Object.keys(manifest.dependencies).length);
    expect(refused).toEqual([]);
    // The check can fail: eventsource-parser 4 wants node >=22.12, more than the SDK's engines say.
    expect(semver.subset(node, ">=22.12")).toBe(false);
  });

  it("is never to be installed by its bare name, in any page or document", async () => {
    const files = [
      "README.md",
      "packages/sdk/README.md",
      ...(await readdir("docs", { recursive: true })).map((f) => `docs/${f}`),
      ...(await readdir("app", { recursive: true })).map((f) => `app/${f}`),
    ].filter((f) => /\.(md|tsx?)$/.test(f));
    const told: string[] = [];
    for (const file of files) {
      const text = await readFile(file, "utf8");
      for (const line of text.split("\n"))
        if (/\b(npm|pnpm|yarn|bun)\b[^\n]*\b(install|add|i)\b[^\n]*@finca\/sdk/.test(line))
          told.push(`${file}: ${line}`);
    }
    expect(told).toEqual([]);
  });
});
