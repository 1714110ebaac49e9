// Register downloads: https only, every address dialled through the webhooks' SSRF guard, redirects
// followed only within the host, and a byte cap whether or not the server says the length. The
// replay server is plain http on loopback, so the cases that fetch from it allow private addresses
// (the documented switch, FINCA_REGISTERS_ALLOW_PRIVATE); the refusals are checked without it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "@/lib/http/ssrf";
import { remoteFile, type DownloadRules } from "@/lib/registers/files";
import { listen, type LocalServer } from "../support/receiver";

let server: LocalServer;
let other: LocalServer;
const at = (path: string, s = server) => `http://127.0.0.1:${s.port}${path}`;
beforeAll(async () => {
  other = await listen((_req, _body, res) => res.end("elsewhere\n"));
  server = await listen((req, _body, res) => {
    const url = req.url ?? "/";
    if (url === "/data.csv") res.writeHead(200, { "Content-Type": "text/csv" }).end("a,b\n1,2\n");
    else if (url === "/moved") res.writeHead(302, { Location: "/data.csv" }).end();
    else if (url === "/away") res.writeHead(302, { Location: at("/data.csv", other) }).end();
    else if (url === "/loop") res.writeHead(302, { Location: "/loop" }).end();
    else if (url === "/big") res.writeHead(200, { "Content-Length": "5000" }).end("x".repeat(5000));
    else if (url === "/endless") {
      // No length announced: the cap must hold while the bytes flow.
      res.writeHead(200, { "Content-Type": "text/csv" });
      for (let i = 0; i < 10; i++) res.write("y".repeat(1000));
      res.end();
    } else res.writeHead(404).end();
  });
});
afterAll(async () => {
  await server.close();
  await other.close();
});

const rules = (more: Partial<DownloadRules> = {}): DownloadRules => ({
  timeoutMs: 60_000,
  maxBytes: 4096,
  allowPrivate: true,
  ...more,
});

async function text(url: string, given: DownloadRules) {
  const { stream } = await remoteFile(url, given).open();
  let out = "";
  for await (const chunk of stream) out += String(chunk);
  return out;
}

describe("without the switch (production)", () => {
  const strict = rules({ allowPrivate: false });

  it("refuses plain http", async () => {
    await expect(text("http://registers.example.org/x.csv", strict)).rejects.toThrow(/https only/);
  });

  it("refuses loopback, private and metadata addresses, written as IPs or behind a name", async () => {
    for (const ip of ["127.0.0.1", "10.1.2.3", "169.254.169.254", "[::1]"])
      await expect(text(`https://${ip}/x.csv`, strict), ip).rejects.toThrow(/private, loopback or reserved/);
    const resolver: Resolver = async () => [{ address: "169.254.169.254", family: 4 }];
    await expect(text("https://metadata.example.org/x.csv", { ...strict, resolver })).rejects.toThrow(
      /resolves to a private or reserved address/,
    );
  });
});

describe("with the switch (development and tests)", () => {
  it("downloads, and follows a redirect within the host", async () => {
    expect(await text(at("/data.csv"), rules())).toBe("a,b\n1,2\n");
    expect(await text(at("/moved"), rules())).toBe("a,b\n1,2\n");
  });

  it("refuses a redirect to another host, and a redirect loop", async () => {
    await expect(text(at("/away"), rules())).rejects.toThrow(/only redirects to the same host are followed/);
    await expect(text(at("/loop"), rules())).rejects.toThrow(/more than 5 redirects/);
  });

  it("refuses a file over the byte cap, announced or not", async () => {
    await expect(text(at("/big"), rules())).rejects.toThrow(/5000 bytes, more than 4096/);
    await expect(text(at("/endless"), rules())).rejects.toThrow(/more than 4096 bytes/);
    expect(await text(at("/endless"), rules({ maxBytes: 20_000 }))).toHaveLength(10_000);
  });

  it("names the URL and the status of a failed download", async () => {
    await expect(text(at("/missing.csv"), rules())).rejects.toThrow(/missing\.csv: HTTP 404/);
  });
});
