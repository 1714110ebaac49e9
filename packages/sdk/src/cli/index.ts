// The partner commands of the `finca` CLI: listen, batch, trigger, sandbox, login and logout. They talk to
// a Finca server over HTTP with the partner's key (never to its database), so they ship with the
// SDK as its `finca` bin (./bin.ts, bundled into dist/cli.mjs) and serve the operator CLI of the
// server's checkout (scripts/finca.ts) too.
import { parseArgs } from "node:util";
import { BATCH_HELP, batchCommand, UsageError } from "./batch.js";
import { loginCommand, logoutCommand } from "./credentials.js";
import type { HelpEntry } from "./help.js";
import { listenCommand } from "./listen.js";
import { SANDBOX_HELP, sandboxCommand } from "./sandbox.js";
import { TRIGGER_HELP, triggerCommand } from "./trigger.js";

export { UsageError };

/** The partner commands' help entries (the operator CLI lists them after its own). */
export const PARTNER_HELP: readonly HelpEntry[] = [
  {
    usage: "listen [--key <test key>] --forward-to <url> [--base-url <url>]",
    text: `Forward your test-mode events to a local receiver, signed as real deliveries (like \`stripe listen\`);
      talks to the server over HTTP, not to the database. Ctrl-C stops it`,
  },
  ...BATCH_HELP,
  ...TRIGGER_HELP,
  ...SANDBOX_HELP,
  {
    usage: "login [--key <key>]",
    text: `Keep your API key (else FINCA_API_KEY, else the first line of standard input) for listen, trigger and
      batch, in a file only you can read`,
  },
  { usage: "logout", text: "Forget it" },
];

/** What every partner command that talks to the server takes. */
export const PARTNER_HELP_NOTE = `listen, batch and trigger take the key from --key, FINCA_API_KEY or finca login (a file
only you can read: out of ps and shell history), and the server from --base-url, FINCA_URL, else
http://localhost:3000.`;

/** Runs a partner command; false when `argv` names none. */
export async function partnerCommand(argv: string[]): Promise<boolean> {
  const [command, ...rest] = argv;
  if (command === "listen") await listenCommand(rest);
  else if (command === "batch") await batchCommand(rest);
  else if (command === "trigger") await triggerCommand(rest);
  else if (command === "sandbox") await sandboxCommand(rest);
  else if (command === "login") {
    const { values } = parseArgs({ args: rest, options: { key: { type: "string" } } });
    console.log(`Key kept in ${await loginCommand(values)}`);
  } else if (command === "logout") console.log(`Removed ${await logoutCommand()}`);
  else return false;
  return true;
}
