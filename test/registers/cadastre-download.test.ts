// `--url` for Catastro's INSPIRE downloads, against a local replay of the publisher (a node:http server
// on loopback): the territorial office's ATOM feed (the constructed fixture
// lib/registers/catastro-inspire/fixtures/ES.SDGC.BU.atom_28.xml, its links moved to the replay) and the
// municipality's zip, built here from the constructed BU samples as the feed's entries name it. The
// zip's GML files are read as it streams; the copy equals the one the same files make from disk. The
// replay's host is passed as the hosts taken, as a test may and the CLI cannot.
import { readFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cadastreDownloads, importCadastre, localFile } from "@/lib/registers";
import { createTestDatabase, type TestDatabase } from "../support/database";

const FIXTURES = path.join(process.cwd(), "lib/registers/catastro-inspire/fixtures");
const PUBLISHER = "https://www.catastro.hacienda.gob.es";
const BU = ["building", "buildingpart"].map((kind) => path.join(FIXTURES, `28900.${kind}.gml`));

let server: http.Server;
let base = "";
const asked: string[] = [];
let testDb: TestDatabase;
beforeAll(async () => {
  const zip = new JSZip();
  zip.file("A.ES.SDGC.BU.28900.building.gml", await readFile(BU[0]!));
  zip.file("A.ES.SDGC.BU.28900.buildingpart.gml", await readFile(BU[1]!));
  zip.file("readme.txt", "not GML: skipped");
  const zipped = await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
  const feed = await readFile(path.join(FIXTURES, "ES.SDGC.BU.atom_28.xml"), "utf8");
  server = http.createServer((req, res) => {
    asked.push(req.url!);
    if (req.url!.endsWith("atom_28.xml")) res.end(feed.replaceAll(PUBLISHER, base));
    else if (req.url!.endsWith("/28900-MADRID/A.ES.SDGC.BU.28900.zip")) res.end(zipped);
    else if (req.url!.endsWith("elsewhere.xml")) res.end(feed);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  testDb = await createTestDatabase();
});
afterAll(async () => {
  server?.close();
  await testDb?.drop();
});

const options = (municipality?: string) => ({
  rules: { timeoutMs: 30_000, maxBytes: 10_000_000, allowPrivate: true },
  municipality,
  hosts: [new URL(base).host],
});

describe("Catastro's INSPIRE downloads by URL", () => {
  it("finds the municipality's zip in the feed and reads its GML files as the zip streams", async () => {
    const files = await cadastreDownloads([`${base}/INSPIRE/buildings/28/ES.SDGC.bu.atom_28.xml`], options("28900"));
    expect(files.map((f) => f.name)).toEqual([`${base}/INSPIRE/Buildings/28/28900-MADRID/A.ES.SDGC.BU.28900.zip`]);
    const downloaded = await importCadastre(testDb.database.db, "catastro-inspire", files, "28900");
    const fromDisk = await importCadastre(testDb.database.db, "catastro-inspire", BU.map(localFile), "28900");
    expect(downloaded.counts).toEqual(fromDisk.counts);
    expect(downloaded.counts).toMatchObject({ building: 2 });
    expect(downloaded.asOf).toBe(fromDisk.asOf);
  });

  it("takes a zip's URL as it is, the municipality from its name", async () => {
    const url = `${base}/INSPIRE/Buildings/28/28900-MADRID/A.ES.SDGC.BU.28900.zip`;
    const result = await importCadastre(
      testDb.database.db,
      "catastro-inspire",
      await cadastreDownloads([url], options()),
    );
    expect(result.municipality).toBe("28900");
  });

  it("refuses a feed's link to a host that is not the publisher's, before asking it", async () => {
    const before = asked.length;
    // This feed's links stay on www.catastro.hacienda.gob.es: not among the hosts this test takes.
    await expect(cadastreDownloads([`${base}/elsewhere.xml`], options("28900"))).rejects.toThrow(
      /www\.catastro\.hacienda\.gob\.es is not one of Catastro's publishing hosts/,
    );
    expect(asked.slice(before)).toEqual(["/elsewhere.xml"]);
  });

  it("needs the municipality for a feed, and an entry for it", async () => {
    const feed = `${base}/INSPIRE/buildings/28/ES.SDGC.bu.atom_28.xml`;
    await expect(cadastreDownloads([feed], options())).rejects.toThrow(/--municipality/);
    await expect(cadastreDownloads([feed], options("28079"))).rejects.toThrow(/no entry for municipality 28079/);
  });
});
