// Summarises a V8 .cpuprofile: self time by package/file and by function, to see where a request's
// CPU goes (bench/create.ts --profile writes one for the lean server).
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export function summarizeProfile(file: string, rows = 25): string {
  const profile = JSON.parse(readFileSync(file, "utf8")) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  // Inclusive time of the project's own functions (everything they call, libraries included).
  const inclusive = new Map<string, number>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const own = `file://${process.cwd()}/`;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    total += micros;
    const frame = nodes.get(id)!.callFrame;
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
      .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`)
      .join("\n");
  return `CPU ${(total / 1e6).toFixed(1)} s sampled\n-- self time by package/file --\n${top(byPackage)}\n-- self time by function --\n${top(byFunction)}\n-- inclusive time of project functions --\n${top(inclusive)}`;
}
