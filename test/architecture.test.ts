// The codebase's shape: every lib/ folder stands on a floor of the layer order dependency-cruiser
// enforces (.dependency-cruiser.cjs, run by `npm test`), and the diagram of docs/architecture.md names it.
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { expect, it } from "vitest";

const config = createRequire(import.meta.url)("../.dependency-cruiser.cjs") as {
  forbidden: { name: string; from: { path?: string } }[];
};

it("every lib/ folder has a floor in the layer rules and a place in docs/architecture.md's diagram", async () => {
  const folders = (await readdir("lib", { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const floors = config.forbidden
    .filter((rule) => rule.name.startsWith("lib-floor-"))
    .flatMap((rule) => /^\^lib\/\((.*)\)\/$/.exec(rule.from.path ?? "")![1]!.split("|"));
  expect(folders.filter((f) => !floors.includes(f))).toEqual([]);
  expect(floors.filter((f) => !folders.includes(f))).toEqual([]);
  const page = await readFile("docs/architecture.md", "utf8");
  const diagram = page.slice(0, page.indexOf("One request, end to end:"));
  expect(folders.filter((f) => !diagram.includes(`lib/${f}/`))).toEqual([]);
});
