// Where an import reads from: a local file, or a URL (operators with internet access).
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
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

/**
 * A download, streamed as it arrives. `timeoutMs` bounds the whole transfer (bulk files are large);
 * anything but a 200 is an error naming the URL and the status.
 */
export function remoteFile(url: string, options: { timeoutMs: number; headers?: Record<string, string> }): ImportFile {
  return {
    name: url,
    async open() {
      const res = await fetch(url, {
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: { "User-Agent": "Finca/1.0 (register index)", ...options.headers },
      });
      if (res.status !== 200 || !res.body) {
        await res.body?.cancel();
        throw new Error(`${url}: HTTP ${res.status}`);
      }
      const length = Number(res.headers.get("content-length"));
      return {
        stream: Readable.fromWeb(res.body as WebReadableStream),
        size: Number.isFinite(length) && length > 0 ? length : null,
      };
    },
  };
}
