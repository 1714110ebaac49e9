// The registers' configuration keys (their base URLs, a token), declared by each register module and
// read from the environment here, once, with the schemas they declare: lib/config knows the
// service's own tunables, the register modules know theirs.
import { z } from "zod";
import { REGISTERS } from "./regions";
import type { RegisterSettings } from "./register";

/** Every register's keys and schemas (a key two registers read has one schema). */
export const SETTINGS_SCHEMA = z.object(Object.fromEntries(REGISTERS.flatMap((r) => Object.entries(r.settings))));

/** The registers' settings from `env` (an empty variable is unset); a bad value stops the start. */
export function registerSettings(env: Record<string, string | undefined> = process.env): RegisterSettings {
  const keys = Object.keys(SETTINGS_SCHEMA.shape);
  const present = Object.fromEntries(keys.filter((k) => env[k] !== undefined && env[k] !== "").map((k) => [k, env[k]]));
  const parsed = SETTINGS_SCHEMA.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}
