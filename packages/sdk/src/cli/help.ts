// The CLI's help, laid out in one place: each command's usage at the margin, its description from
// one column on, wrapped at one width, so no entry drifts out of line with the others.

/** The column (from 0) where every description starts, and the width it is wrapped to. */
export const HELP_COLUMN = 50;
export const HELP_WIDTH = 112;

export interface HelpEntry {
  /** The command's usage; several lines when it is long. */
  usage: string | readonly string[];
  text: string;
}

/** Words wrapped into lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** The entries as help lines: the description beside the usage when it fits, else below it. */
export function helpText(entries: readonly HelpEntry[]): string {
  const pad = " ".repeat(HELP_COLUMN);
  return entries
    .flatMap(({ usage, text }) => {
      const usages = (typeof usage === "string" ? [usage] : [...usage]).map((u) => `  ${u}`);
      const [first = "", ...rest] = wrap(text, HELP_WIDTH - HELP_COLUMN);
      const last = usages.at(-1)!;
      const beside = last.length < HELP_COLUMN - 1;
      return [
        ...usages.slice(0, -1),
        ...(beside ? [last.padEnd(HELP_COLUMN) + first] : [last, pad + first]),
        ...rest.map((line) => pad + line),
      ];
    })
    .join("\n");
}
