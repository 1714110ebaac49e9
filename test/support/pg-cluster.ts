// A private, throw-away PostgreSQL 15 cluster for fault tests: it can be crashed and restarted
// without touching the machine's shared server. initdb refuses to run as root, so as root every
// command runs as the `postgres` user, in a temporary folder that user owns.
import { execFile } from "node:child_process";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./ports";

const run = promisify(execFile);
const BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

export interface PgCluster {
  url: string;
  /** `pg_ctl stop -m immediate`: the server dies at once, like a crash (recovery at the next start). */
  crash(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server if it runs and deletes its files. */
  destroy(): Promise<void>;
}

export async function createPgCluster(): Promise<PgCluster> {
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(path.join(tmpdir(), "finca-pg-"));
  const pg = (tool: string, args: string[]) =>
    run(
      asRoot ? "runuser" : path.join(BIN, tool),
      asRoot ? ["-u", "postgres", "--", path.join(BIN, tool), ...args] : args,
      { timeout: 60_000 },
    );
  const data = path.join(dir, "data");
  const port = await freePort();
  // fsync off: only the server process crashes here, never the machine, so the kernel keeps the WAL.
  const options = `-c port=${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off`;
  const start = () =>
    pg("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-o", options, "-w", "-t", "60", "start"]).then(() => {});
  const stop = (mode: string) => pg("pg_ctl", ["-D", data, "-m", mode, "-w", "stop"]).then(() => {});
  try {
    if (asRoot) {
      const id = async (flag: string) => Number((await run("id", [flag, "postgres"])).stdout);
      await chown(dir, await id("-u"), await id("-g"));
    }
    await pg("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
    await start();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    crash: () => stop("immediate"),
    start,
    async destroy() {
      await stop("immediate").catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
