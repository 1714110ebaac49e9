// The physical lines of a decoded text, numbered from 1, without their line break (LF or CRLF). A
// line longer than the cap is not held in memory: its text is dropped and it is marked `tooLong`
// (a quote never closed, or no text file at all), so one bad line cannot take the rest of the file.
export interface TextLine {
  number: number;
  text: string;
  tooLong: boolean;
}

/** A line longer than this is no register row. */
export const MAX_LINE_CHARS = 1024 * 1024;

export async function* textLines(chunks: AsyncIterable<string>, maxChars = MAX_LINE_CHARS): AsyncGenerator<TextLine> {
  let rest = "";
  let tooLong = false;
  let number = 0;
  const line = (text: string): TextLine => {
    const done = { number: ++number, text: tooLong ? "" : text.replace(/\r$/, ""), tooLong };
    tooLong = false;
    return done;
  };
  for await (const chunk of chunks) {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop()!;
    for (const part of parts) yield line(part);
    if (rest.length > maxChars) {
      tooLong = true;
      rest = "";
    }
  }
  if (rest || tooLong) yield line(rest);
}
