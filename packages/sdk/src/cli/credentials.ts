// The partner's API key for the CLI's partner commands (listen, trigger, batch): --key, else
// FINCA_API_KEY, else what `finca login` stored in a file only the user can read (a key on the
// command line shows in `ps` and shell history).
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { text } from "node:stream/consumers";

/** Where `finca login` keeps the key: $XDG_CONFIG_HOME/finca/credentials.json (~/.config by default). */
export const credentialsFile = () =>
  path.join(process.env.XDG_CONFIG_HOME || path.join(homedir(), ".config"), "finca", "credentials.json");

/** The key to use, or null when none is given anywhere. */
export async function apiKeyOf(values: Record<string, unknown>): Promise<string | null> {
  const given = (typeof values.key === "string" && values.key.trim()) || process.env.FINCA_API_KEY?.trim();
  if (given) return given;
  try {
    const stored: unknown = JSON.parse(await readFile(credentialsFile(), "utf8"));
    const key = typeof stored === "object" && stored !== null && "api_key" in stored ? stored.api_key : null;
    return typeof key === "string" && key ? key : null;
  } catch {
    return null; // never logged in
  }
}

/**
 * `finca login`: stores the key (--key, FINCA_API_KEY, or the first line of standard input) in the
 * credentials file, readable by the user alone; `finca logout` removes it.
 */
export async function loginCommand(values: Record<string, unknown>): Promise<string> {
  const key =
    (typeof values.key === "string" && values.key.trim()) ||
    process.env.FINCA_API_KEY?.trim() ||
    (await text(process.stdin)).split("\n")[0]!.trim();
  if (!/^finca_(test|live)_\S+$/.test(key))
    throw new Error("that is not a Finca API key (finca_test_… or finca_live_…)");
  const file = credentialsFile();
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify({ api_key: key })}\n`, { mode: 0o600 });
  await chmod(file, 0o600); // an existing file keeps its mode on write
  return file;
}

export async function logoutCommand(): Promise<string> {
  const file = credentialsFile();
  await rm(file, { force: true });
  return file;
}
