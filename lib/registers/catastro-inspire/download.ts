// Catastro's INSPIRE downloads by URL: only from the publisher's own hosts (never an arbitrary
// address: an import URL is an operator's input, and the index must hold Catastro's data only), a
// municipality's zip directly or through its territorial office's ATOM feed; the zip's GML files are
// read as they stream from the answer (unzipper), never written to disk.
//
// The shapes, from independent evidence (no file was fetched from Catastro here):
// - the feeds: an Atom `feed` whose `entry` elements each carry a `title` (the municipality,
//   `<code>-<NAME>`), a `link href` (the municipality's zip) and `updated` (rOpenSpain/CatastRo,
//   R/utils-atom.R, which reads the territorial offices' feeds that way);
// - the zips' addresses: `…/INSPIRE/Buildings/28/28900-MADRID/A.ES.SDGC.BU.28900.zip`, one per
//   municipality and theme (CarlosBeltranVelamazan/NBEM, INSPIRE_cadastre/Automated_links/*.txt),
//   holding `….building.gml`, `….buildingpart.gml` and other constructions (CatastRo, R/atom-bu.R).
import type { Readable } from "node:stream";
import { SaxesParser } from "saxes";
import { Parse, type Entry } from "unzipper";
import { type DownloadRules, remoteFile } from "../files";
import type { ImportFile } from "../import";

/**
 * Catastro's publishing hosts: the INSPIRE ATOM service (www.catastro.hacienda.gob.es since 2024; its
 * earlier names www.catastro.minhap.es and www.catastro.meh.es, which peers' lists still use) and the
 * electronic office that serves the CAT files (www1.sedecatastro.gob.es).
 */
export const CATASTRO_DOWNLOAD_HOSTS: readonly string[] = [
  "www.catastro.hacienda.gob.es",
  "www.catastro.minhap.es",
  "www.catastro.meh.es",
  "www1.sedecatastro.gob.es",
];

/** `url` when it is on one of `hosts`; else an error that says which hosts are taken. */
export function publisherUrl(url: string, hosts: readonly string[] = CATASTRO_DOWNLOAD_HOSTS): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--url ${url}: not a URL`);
  }
  if (!hosts.includes(parsed.host.toLowerCase()))
    throw new Error(
      `--url ${url}: ${parsed.host} is not one of Catastro's publishing hosts (${hosts.join(", ")}); ` +
        "download other files yourself and import them with --file",
    );
  return parsed;
}

export interface CadastreDownloadOptions {
  rules: DownloadRules;
  /** Picks the municipality's entry of an ATOM feed (required for a feed). */
  municipality?: string;
  /**
   * The hosts taken: Catastro's. Tests against a local replay pass their own; the CLI never does,
   * so no setting can make it download from elsewhere.
   */
  hosts?: readonly string[];
}

const isFeed = (url: URL) => /\.xml$/i.test(url.pathname) || /atom/i.test(url.pathname);

/** The entries of an Atom feed: each one's title and link. */
async function feedEntries(text: string): Promise<{ title: string; href: string }[]> {
  const parser = new SaxesParser();
  const entries: { title: string; href: string }[] = [];
  let entry: { title: string; href: string } | null = null;
  let inTitle = false;
  parser.on("opentag", (tag) => {
    const name = tag.name.replace(/^.*:/, "");
    if (name === "entry") entry = { title: "", href: "" };
    else if (entry && name === "title") inTitle = true;
    else if (entry && name === "link" && !entry.href) entry.href = String(tag.attributes.href ?? "");
  });
  parser.on("text", (chars) => {
    if (entry && inTitle) entry.title += chars;
  });
  parser.on("closetag", (tag) => {
    const name = tag.name.replace(/^.*:/, "");
    if (name === "title") inTitle = false;
    else if (name === "entry" && entry) {
      entries.push({ title: entry.title.trim(), href: entry.href.trim() });
      entry = null;
    }
  });
  parser.write(text).close();
  return entries;
}

async function textOf(file: ImportFile): Promise<string> {
  const { stream } = await file.open();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The files `urls` name: a zip or GML file as it is, a feed's entry for `municipality` (its title
 * `<code>-…` or its zip `….<code>.zip`). Every URL, the feed's links included, must be on the hosts.
 */
export async function cadastreDownloads(
  urls: readonly string[],
  options: CadastreDownloadOptions,
): Promise<ImportFile[]> {
  const files: ImportFile[] = [];
  for (const url of urls) {
    const parsed = publisherUrl(url, options.hosts);
    if (!isFeed(parsed)) {
      files.push(remoteFile(parsed.href, options.rules));
      continue;
    }
    const code = options.municipality;
    if (!code) throw new Error(`--url ${url} is an ATOM feed: say which municipality with --municipality <code>`);
    const entries = await feedEntries(await textOf(remoteFile(parsed.href, options.rules)));
    const found = entries.find(
      (e) => e.title.startsWith(`${code}-`) || new RegExp(`\\.${code}\\.zip$`, "i").test(e.href),
    );
    if (!found?.href) throw new Error(`--url ${url}: the feed has no entry for municipality ${code}`);
    const zip = new URL(found.href, parsed);
    files.push(remoteFile(publisherUrl(zip.href, options.hosts).href, options.rules));
  }
  return files;
}

/**
 * The GML files a download holds: the file itself, or each `.gml` entry of a zip as the zip streams
 * (named `<zip>!<entry>`); whatever else a zip holds is skipped. Each entry must be read to its end
 * before the next is asked for.
 */
export async function* gmlFiles(name: string, stream: Readable): AsyncGenerator<{ name: string; stream: Readable }> {
  if (!/\.zip$/i.test(name)) {
    yield { name, stream };
    return;
  }
  const entries = stream.pipe(Parse({ forceStream: true })) as unknown as AsyncIterable<Entry>;
  stream.on("error", (error) => (entries as unknown as Readable).destroy(error));
  for await (const entry of entries) {
    if (entry.type === "File" && /\.gml$/i.test(entry.path)) yield { name: `${name}!${entry.path}`, stream: entry };
    else entry.autodrain();
  }
}
