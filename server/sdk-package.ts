// The SDK's package as this deployment serves it, at /sdk/<file> (app/sdk/[file]/route.ts): packed
// by scripts/build.mjs (`npm start` packs it with the app) into .finca-sdk/, beside a manifest of
// its version and SHA-256. Partners install it from that URL: `@finca/sdk` is not a name on the
// public registry, and whoever claimed it there would be installed by everyone told to use it.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

const FOLDER = path.join(process.cwd(), ".finca-sdk");

const Manifest = z.object({
  name: z.string(),
  version: z.string(),
  /** The tarball's file name, e.g. `finca-sdk-1.0.0.tgz`. */
  file: z.string().regex(/^[\w.-]+\.tgz$/),
  size: z.number().int(),
  /** Hex SHA-256 of the tarball. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** npm's own integrity string (sha512), what a lockfile records. */
  integrity: z.string(),
});
export type SdkPackage = z.infer<typeof Manifest> & { path: string };

/** The package this server serves, or null when it has not been packed here (`node scripts/build.mjs`). */
export async function sdkPackage(): Promise<SdkPackage | null> {
  const text = await readFile(path.join(FOLDER, "manifest.json"), "utf8").catch(() => null);
  if (text === null) return null;
  const manifest = Manifest.parse(JSON.parse(text));
  return { ...manifest, path: `/sdk/${manifest.file}` };
}

/** The tarball's bytes. */
export const sdkTarball = (pkg: SdkPackage) => readFile(path.join(FOLDER, pkg.file));
