// The encoding of a text file, decided from its bytes as they stream (UTF-8 until a byte says
// otherwise, then Windows-1252), whatever size the chunks are cut to.
import { describe, expect, it } from "vitest";
import { decodeText, decodeWindows1252 } from "./decode";

async function decode(bytes: Buffer, chunkSize = bytes.length) {
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += chunkSize) yield bytes.subarray(i, i + chunkSize);
  }
  const text = decodeText(chunks());
  let out = "";
  for await (const chunk of text.chunks) out += chunk;
  return { text: out, encoding: text.encoding(), switchedAtLine: text.switchedAtLine() };
}

const SAMPLE = "provincia;municipio\nA CORUÑA;Cerdedo-Cotobade\nCASTELLÓN;Vila-real €\n";

describe("decodeText", () => {
  it("reads valid UTF-8 as UTF-8, also when a chunk ends inside a character", async () => {
    for (const size of [1, 2, 3, 7, 4096])
      expect(await decode(Buffer.from(SAMPLE, "utf8"), size)).toEqual({
        text: SAMPLE,
        encoding: "utf-8",
        switchedAtLine: null,
      });
  });

  it("drops UTF-8's byte order mark", async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SAMPLE, "utf8")]);
    for (const size of [3, 5, 4096]) expect(await decode(bom, size)).toMatchObject({ text: SAMPLE, encoding: "utf-8" });
  });

  it("reads a file that is not UTF-8 as Windows-1252 from its first such byte, naming that line", async () => {
    const cp1252 = Buffer.from(SAMPLE.replace("€", "\x80"), "latin1");
    for (const size of [1, 4, 4096])
      expect(await decode(cp1252, size)).toEqual({ text: SAMPLE, encoding: "windows-1252", switchedAtLine: 2 });
  });

  it("reads a UTF-8 sequence the file never completes as Windows-1252", async () => {
    expect(await decode(Buffer.from([0x41, 0x0a, 0xc3]))).toEqual({
      text: "A\nÃ",
      encoding: "windows-1252",
      switchedAtLine: 2,
    });
  });
});

describe("decodeWindows1252", () => {
  it("maps 0x80-0x9F to Windows-1252's characters, which Node's own decoder reads as Latin-1 controls", () => {
    expect(decodeWindows1252(Buffer.from([0x80, 0x93, 0x94, 0x9c, 0xd1, 0x81]))).toBe("€“”œÑ\x81");
  });
});
