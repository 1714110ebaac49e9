// The generated OpenAPI document as a file, for the outside tools that read files (Redocly,
// Spectral, Prism). Written under .openapi/ (git-ignored) because Redocly's ignore file names it
// by its path from the repository root.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "@/lib/config";
import { openApiDocument } from "@/lib/partner-api";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Writes the document of the default configuration (and `env`); returns its path relative to ROOT.
 * Each test file names its own file: test files run at once, and their documents may differ.
 */
export function writeOpenApiFile(name: string, env: Record<string, string> = {}): string {
  return writeDocumentFile(name, openApiDocument(loadConfig(env)));
}

/** Writes `document` (one the API answered, say) as .openapi/`name`; returns its path relative to ROOT. */
export function writeDocumentFile(name: string, document: unknown): string {
  mkdirSync(path.join(ROOT, ".openapi"), { recursive: true });
  const file = `.openapi/${name}`;
  writeFileSync(path.join(ROOT, file), JSON.stringify(document, null, 2));
  return file;
}

/** A package's command-line entry point (its `bin`), run with this node. */
export async function binOf(pkg: string, name: string): Promise<string> {
  const { createRequire } = await import("node:module");
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = require(manifest) as { bin: string | Record<string, string> };
  return path.join(path.dirname(manifest), typeof bin === "string" ? bin : bin[name]!);
}
