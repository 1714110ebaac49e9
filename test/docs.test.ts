// The documentation follows the code: the settings table of docs/operations.md names every setting
// lib/config reads, and nothing else but the variables the database and the processes read
// themselves; every relative link of the README and docs/ leads to a file that exists.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SETTINGS } from "@/lib/config";

/** Source files (not tests) of the folders that read the environment. */
function sources(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|mjs)$/.test(f) && !/\.test\.ts$/.test(f))
    .map((f) => path.join(folder, f));
}

describe("docs/operations.md, Configuration", () => {
  const doc = readFileSync("docs/operations.md", "utf8");
  const table = doc.slice(doc.indexOf("## Configuration"), doc.indexOf("## Running it"));
  const named = new Set(
    table
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .flatMap((line) => [...line.split(" | ")[0]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!)),
  );

  it("names every setting of lib/config", () => {
    expect(SETTINGS.filter((setting) => !named.has(setting))).toEqual([]);
  });

  it("names nothing else than what the code reads", () => {
    const code = ["lib", "server", "scripts"].flatMap(sources).map((file) => readFileSync(file, "utf8"));
    const others = [...named].filter((name) => !(SETTINGS as string[]).includes(name));
    expect(others.filter((name) => !code.some((text) => new RegExp(`\\b${name}\\b`).test(text)))).toEqual([]);
  });
});

it("every relative link of the README and docs/ leads to a file", () => {
  const pages = ["README.md", ...readdirSync("docs", { recursive: true, encoding: "utf8" }).map((f) => `docs/${f}`)];
  const broken = pages
    .filter((page) => page.endsWith(".md"))
    .flatMap((page) =>
      [...readFileSync(page, "utf8").matchAll(/\]\(([^)#:\s]+)(#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !existsSync(path.join(path.dirname(page), target)))
        .map((target) => `${page} → ${target}`),
    );
  expect(broken).toEqual([]);
});
