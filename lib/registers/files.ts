// Where an import reads from: a local file, or a URL (operators with internet access).
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import { pipeline, Transform } from "node:stream";
import { blockedLiteral, guardedLookup, systemResolver, type Resolver } from "@/lib/http/ssrf";
import type { ImportFile } from "./import";

export function localFile(path: string): ImportFile {
  return {
    name: path,
    async open() {
      const { size } = await stat(path);
      return { stream: createReadStream(path), size };
    },
  };
}

export interface DownloadRules {
  /** Bounds the whole transfer (bulk files are large). */
  timeoutMs: number;
  headers?: Record<string, string>;
  /** Bytes of one file at most (REGISTER_MAX_DOWNLOAD_BYTES). */
  maxBytes: number;
  /** Plain http and private addresses allowed (FINCA_REGISTERS_ALLOW_PRIVATE): development and tests only. */
  allowPrivate: boolean;
  resolver?: Resolver;
}

const MAX_REDIRECTS = 5;

/** Why a download URL is refused, or null. */
function downloadProblem(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:"))
    return "register downloads use https only";
  if (url.username || url.password) return "the URL must not contain credentials";
  if (!allowPrivate && blockedLiteral(url)) return "a private, loopback or reserved address";
  return null;
}

/**
 * The answer to GET `url`: a 200, after at most MAX_REDIRECTS redirects, each to the same host (a
 * dataset's server may move a file, not send us elsewhere). Every address dialled passes the SSRF
 * guard the webhooks use, so a register URL cannot reach the cloud's metadata or our own network.
 */
function answer(url: URL, rules: DownloadRules, signal: AbortSignal, redirects = 0): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const problem = downloadProblem(url, rules.allowPrivate);
    if (problem) return reject(new Error(`${url.href}: ${problem}`));
    const client = url.protocol === "https:" ? https : http;
    const options = {
      signal,
      headers: { "User-Agent": "Finca/1.0 (register index)", ...rules.headers },
      lookup: guardedLookup(rules.resolver ?? systemResolver, rules.allowPrivate),
    };
    const request = client.get(url, options, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location) {
        res.resume();
        const next = new URL(location, url);
        if (next.host !== url.host)
          return reject(
            new Error(`${url.href}: redirected to ${next.host}; only redirects to the same host are followed`),
          );
        if (redirects >= MAX_REDIRECTS) return reject(new Error(`${url.href}: more than ${MAX_REDIRECTS} redirects`));
        return resolve(answer(next, rules, signal, redirects + 1));
      }
      if (status !== 200) {
        res.resume();
        return reject(new Error(`${url.href}: HTTP ${status}`));
      }
      resolve(res);
    });
    request.on("error", (error) => reject(new Error(`${url.href}: ${error.message}`)));
  });
}

/** The bytes passed on, failing once there are more than `maxBytes`. */
function capped(url: string, maxBytes: number): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.byteLength;
      if (bytes > maxBytes) done(new Error(`${url}: more than ${maxBytes} bytes (REGISTER_MAX_DOWNLOAD_BYTES)`));
      else done(null, chunk);
    },
  });
}

/** A download, streamed as it arrives; anything but a 200 is an error naming the URL and the status. */
export function remoteFile(url: string, rules: DownloadRules): ImportFile {
  return {
    name: url,
    async open() {
      const res = await answer(new URL(url), rules, AbortSignal.timeout(rules.timeoutMs));
      const length = Number(res.headers["content-length"]);
      if (Number.isFinite(length) && length > rules.maxBytes) {
        res.destroy();
        throw new Error(`${url}: ${length} bytes, more than ${rules.maxBytes} (REGISTER_MAX_DOWNLOAD_BYTES)`);
      }
      // An aborted or failed transfer ends the stream with its error, as an oversized one does.
      const stream = pipeline(res, capped(url, rules.maxBytes), () => {});
      return { stream, size: Number.isFinite(length) && length > 0 ? length : null };
    },
  };
}
