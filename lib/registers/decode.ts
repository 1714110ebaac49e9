// A text file's encoding, decided from its bytes as they stream: UTF-8 while every byte so far is
// valid UTF-8, Windows-1252 from the first one that is not. A Windows-1252 file's bytes before its
// first accented letter are ASCII, which both encodings read alike, so nothing read earlier
// changes; registers publish both (Galicia's file is UTF-8 although peers read it as Latin-1).
import { isUtf8 } from "node:buffer";

export type TextEncoding = "utf-8" | "windows-1252";

/**
 * Windows-1252's 0x80–0x9F (Node's TextDecoder reads that label as Latin-1, where these bytes are
 * control characters); the five unassigned bytes stay as they are.
 */
const CP1252_HIGH = "€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8DŽ\x8F\x90‘’“”•–—˜™š›œ\x9DžŸ";

export function decodeWindows1252(bytes: Buffer): string {
  return bytes.toString("latin1").replace(/[\x80-\x9F]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** How many bytes at the end of `bytes` begin a UTF-8 sequence that the next chunk completes. */
function incompleteTail(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

export interface DecodedText {
  /** The text, chunk by chunk, without a byte order mark. */
  chunks: AsyncGenerator<string>;
  /** The encoding decided so far (final once `chunks` is done). */
  encoding(): TextEncoding;
  /** The line where Windows-1252 took over (its first byte that is not UTF-8), or null. */
  switchedAtLine(): number | null;
}

export function decodeText(bytes: AsyncIterable<Buffer>): DecodedText {
  let encoding: TextEncoding = "utf-8";
  let switchedAt: number | null = null;
  let lines = 1;
  async function* chunks(): AsyncGenerator<string> {
    let carry: Buffer = Buffer.alloc(0);
    let first = true;
    for await (const chunk of bytes) {
      let data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      if (first && data.length >= 3 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf)
        data = data.subarray(3);
      first = false;
      let text: string;
      if (encoding === "utf-8") {
        const whole = data.subarray(0, data.length - incompleteTail(data));
        if (isUtf8(whole)) {
          text = UTF8.decode(whole);
          carry = data.subarray(whole.length);
        } else {
          encoding = "windows-1252";
          switchedAt = lines + count(data.subarray(0, firstInvalid(data)).toString("latin1"), "\n");
          text = decodeWindows1252(data);
          carry = Buffer.alloc(0);
        }
      } else text = decodeWindows1252(data);
      lines += count(text, "\n");
      if (text) yield text;
    }
    // Bytes left over begin a sequence the file never completed: not UTF-8 after all.
    if (carry.length) {
      encoding = "windows-1252";
      switchedAt ??= lines;
      yield decodeWindows1252(carry);
    }
  }
  return { chunks: chunks(), encoding: () => encoding, switchedAtLine: () => switchedAt };
}

const count = (text: string, char: string) => {
  let n = 0;
  for (let i = text.indexOf(char); i >= 0; i = text.indexOf(char, i + 1)) n++;
  return n;
};

/** Where the first byte that breaks UTF-8 sits (called once, on the chunk that has one). */
function firstInvalid(data: Buffer): number {
  for (let end = 0; end < data.length; ) {
    const byte = data[end]!;
    const length =
      byte < 0x80
        ? 1
        : byte >= 0xc2 && byte <= 0xdf
          ? 2
          : byte >= 0xe0 && byte <= 0xef
            ? 3
            : byte >= 0xf0 && byte <= 0xf4
              ? 4
              : 0;
    if (!length || !isUtf8(data.subarray(end, end + length))) return end;
    end += length;
  }
  return data.length;
}
