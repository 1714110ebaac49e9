// bench/cli: the operator CLI's own start-up, a command (`partners list`) from process start to
// exit on an existing data folder (the embedded PostgreSQL started for the command and stopped after
// it) and on PostgreSQL, against baselines timed in the same run:
// node starting and exiting, node with tsx's loader, and opening the same database with nothing of
// ours (bench/open-database.ts library) and through lib/db (…ts app: the migration check too).
// Also: `--help` (the CLI's imports, no database), the documented `npm run --silent finca` (npm's
// own start-up on top), and on a new folder: the embedded PostgreSQL's first start (initdb) alone,
// and `keys create` (initdb and every migration). The embedded rows are docs/performance.md's start-up figures.
// Timed by hyperfine (apt-get install hyperfine): wall time and CPU time of each command.
//   npx tsx bench/cli.ts [--runs 10] [--warmup 1]
import { spawnSync } from "node:child_process";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { benchOptions, freshDatabase, round, writeResult } from "./lib";

const { runs, warmup } = benchOptions({ runs: 10, warmup: 1 });
const node = process.execPath;
const tsx = [node, "--import", "tsx"];
const cli = [...tsx, "scripts/finca.ts"];

interface Command {
  name: string;
  argv: string[];
  /** Run before each timing (hyperfine --prepare); not timed. */
  prepare?: string[];
}

interface Timing {
  name: string;
  mean_ms: number;
  stddev_ms: number;
  median_ms: number;
  min_ms: number;
  cpu_ms: number;
  runs: number;
}

/** Each command through hyperfine (no shell between), `warmup` untimed runs and `runs` timed ones. */
async function time(commands: Command[], env: Record<string, string | undefined>): Promise<Timing[]> {
  const file = path.join(tmpdir(), `finca-bench-cli-${process.pid}.json`);
  const args = ["--shell=none", "--warmup", String(warmup), "--runs", String(runs)];
  args.push("--export-json", file, "--style", "basic");
  for (const c of commands) args.push("--prepare", c.prepare?.join(" ") ?? "true");
  for (const c of commands) args.push("--command-name", c.name, c.argv.join(" "));
  const run = spawnSync("hyperfine", args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (run.error || run.status !== 0)
    throw new Error(`hyperfine failed (apt-get install hyperfine?): ${run.error?.message ?? `exit ${run.status}`}`);
  const { results } = JSON.parse(await readFile(file, "utf8")) as {
    results: {
      command: string;
      mean: number;
      stddev: number;
      median: number;
      min: number;
      user: number;
      system: number;
      times: number[];
    }[];
  };
  await rm(file, { force: true });
  const ms = (s: number) => round(s * 1000, 0);
  return results.map((r) => ({
    name: r.command,
    mean_ms: ms(r.mean),
    stddev_ms: ms(r.stddev),
    median_ms: ms(r.median),
    min_ms: ms(r.min),
    cpu_ms: ms(r.user + r.system),
    runs: r.times.length,
  }));
}

/** Runs once, untimed (creating the folder or migrating the database), and checks it worked. */
function once(argv: string[], env: Record<string, string | undefined>) {
  const run = spawnSync(argv[0]!, argv.slice(1), { env: { ...process.env, ...env }, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${argv.join(" ")} failed:\n${run.stderr}`);
}

const folder = await mkdtemp(path.join(tmpdir(), "finca-bench-cli-"));
// Its data folders inside: as root, PostgreSQL runs as the system user postgres, which must pass through.
await chmod(folder, 0o711);
const fresh = path.join(folder, "fresh");
const db = await freshDatabase("finca_bench_cli");
const results: Record<string, Timing[]> = {};
try {
  const embedded = { FINCA_DATA_DIR: path.join(folder, "data"), DATABASE_URL: undefined };
  const postgres = { DATABASE_URL: db.url };
  once([...cli, "keys", "create", "--partner", "Bench", "--mode", "test"], embedded);
  once([...cli, "keys", "create", "--partner", "Bench", "--mode", "test"], postgres);

  results.process = await time(
    [
      { name: "node -e 0", argv: [node, "-e", "0"] },
      { name: "node --import tsx -e 0", argv: [...tsx, "-e", "0"] },
      { name: "finca --help (no database)", argv: [...cli, "--help"] },
    ],
    {},
  );
  for (const [label, env] of [
    ["embedded", embedded],
    ["postgres", postgres],
  ] as const) {
    results[label] = await time(
      [
        { name: "database alone (library)", argv: [...tsx, "bench/open-database.ts", "library"] },
        { name: "database through lib/db", argv: [...tsx, "bench/open-database.ts", "app"] },
        { name: "finca partners list", argv: [...cli, "partners", "list"] },
        {
          name: "npm run --silent finca -- partners list",
          argv: ["npm", "run", "--silent", "finca", "--", "partners", "list"],
        },
      ],
      env,
    );
  }
  results.embedded!.push(
    ...(await time(
      [
        {
          name: "database alone, new folder (initdb)",
          argv: [...tsx, "bench/open-database.ts", "library"],
          prepare: ["rm", "-rf", fresh],
        },
        {
          name: "finca keys create, new folder",
          argv: [...cli, "keys", "create", "--partner", "Bench", "--mode", "test"],
          prepare: ["rm", "-rf", fresh],
        },
      ],
      { FINCA_DATA_DIR: fresh, DATABASE_URL: undefined },
    )),
  );
} finally {
  await db.drop();
  await rm(folder, { recursive: true, force: true });
}

// Ratios to the database opened alone, and to node's own start, from the same run.
const find = (list: Timing[], name: string) => list.find((t) => t.name === name)!;
const nodeStart = find(results.process!, "node -e 0").mean_ms;
const ratios = Object.fromEntries(
  (["embedded", "postgres"] as const).map((label) => {
    const alone = find(results[label]!, "database alone (library)").mean_ms;
    return [
      label,
      Object.fromEntries(
        results[label]!.map((t) => [
          t.name,
          { vs_database_alone: round(t.mean_ms / alone, 2), vs_node_start: round(t.mean_ms / nodeStart, 1) },
        ]),
      ),
    ];
  }),
);
for (const [label, list] of Object.entries(results)) {
  console.log(`\n${label}`);
  for (const t of list)
    console.log(
      `  ${t.name.padEnd(42)} ${String(t.mean_ms).padStart(6)} ± ${t.stddev_ms} ms   cpu ${t.cpu_ms} ms   ${JSON.stringify(ratios[label]?.[t.name] ?? "")}`,
    );
}
const settings = { runs, warmup, timer: "hyperfine, no shell" };
console.log("written", await writeResult("cli", { settings, results, ratios }));
