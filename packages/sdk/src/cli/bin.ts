// `finca`, as a partner installs it with @finca/sdk: the partner commands alone.
import { messageOf } from "./batch.js";
import { helpText } from "./help.js";
import { PARTNER_HELP, PARTNER_HELP_NOTE, partnerCommand, UsageError } from "./index.js";

const HELP = `Usage: finca <command> [options]

Commands:
${helpText(PARTNER_HELP)}

${PARTNER_HELP_NOTE}`;

const argv = process.argv.slice(2);
if (!argv.length || argv.includes("--help") || argv.includes("-h")) console.log(HELP);
else {
  try {
    if (!(await partnerCommand(argv))) throw new UsageError(`unknown command: ${argv[0]}`);
  } catch (error) {
    const usage = error instanceof UsageError;
    console.error(`finca: ${messageOf(error)}${usage ? `\n\n${HELP}` : ""}`);
    process.exitCode = usage ? 2 : 1;
  }
}
