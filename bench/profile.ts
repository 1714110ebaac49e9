// Summarises a V8 .cpuprofile: self time by package/file and by function, to see where a request's
// CPU goes (bench/create.ts --profile writes one for the lean server).
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

/**
 * Frames of the compiled servers (.finca-server/*.mjs, built with linked source maps) named by
 * their source file and line, so the summary says `lib/enrichment/engine.ts:120`, not a bundle line.
 */
function sourceMapped(): (frame: ProfileNode["callFrame"]) => ProfileNode["callFrame"] {
  const maps = new Map<string, SourceMap | null>();
  return (frame) => {
    if (!frame.url.startsWith("file://") || !frame.url.endsWith(".mjs")) return frame;
    let map = maps.get(frame.url);
    if (map === undefined) {
      const file = `${fileURLToPath(frame.url)}.map`;
      map = existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, "utf8"))) : null;
      maps.set(frame.url, map);
    }
    const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
    if (!entry || !("originalSource" in entry)) return frame;
    // The bundle was written in a folder of its own and moved (scripts/build.mjs): its sources'
    // leading "../" are relative to that folder, and every source is under the project's root.
    const source = pathToFileURL(path.resolve(entry.originalSource.replace(/^(\.\.\/)+/, ""))).href;
    return { ...frame, url: source, lineNumber: entry.originalLine, columnNumber: entry.originalColumn };
  };
}

/** Microseconds on the monotonic clock V8's profiles are stamped with (the same as hrtime's on Linux). */
export const profileClock = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Self and inclusive time of a profile. Percentages are of the busy time (idle left out). With a
 * `window` (profileClock() at its start and end, in the same run), only the samples inside it count
 * (not start-up or warm-up) and each row also says its milliseconds per request of the window.
 */
export function summarizeProfile(
  file: string,
  rows = 25,
  window?: { from: number; to: number; requests: number },
): string {
  const profile = JSON.parse(readFileSync(file, "utf8")) as {
    nodes: ProfileNode[];
    startTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  const mapped = sourceMapped();
  for (const n of profile.nodes) n.callFrame = mapped(n.callFrame);
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  // Inclusive time of the project's own functions (everything they call, libraries included).
  const inclusive = new Map<string, number>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const own = `file://${process.cwd()}/`;
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    at += micros;
    if (window && (at < window.from || at > window.to)) return;
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === "(idle)") return;
    total += micros;
    const where =
      frame.url.replace(/^.*node_modules\//, "npm:").replace(`file://${process.cwd()}/`, "") ||
      `(${frame.functionName || "native"})`;
    const pkg = where.startsWith("npm:")
      ? where
          .split("/")
          .slice(0, where.startsWith("npm:@") ? 2 : 1)
          .join("/")
      : where;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
    const fn = `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const f = nodes.get(n)!.callFrame;
      if (!f.url.startsWith(own) || f.url.includes("/node_modules/")) continue;
      const key = `${f.functionName || "(anonymous)"} ${f.url.slice(own.length)}:${f.lineNumber + 1}`;
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + micros);
      seen.add(key);
    }
  });
  const top = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, rows)
      .map(
        ([k, v]) =>
          `${((100 * v) / total).toFixed(1).padStart(5)} %` +
          (window ? `${(v / 1000 / window.requests).toFixed(3).padStart(7)} ms` : "") +
          `  ${k}`,
      )
      .join("\n");
  const per = window ? `, ${(total / 1000 / window.requests).toFixed(3)} ms per request of the window` : "";
  return `CPU ${(total / 1e6).toFixed(1)} s busy${per}\n-- self time by package/file --\n${top(byPackage)}\n-- self time by function --\n${top(byFunction)}\n-- inclusive time of project functions --\n${top(inclusive)}`;
}
