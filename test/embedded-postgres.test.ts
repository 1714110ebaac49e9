// The embedded PostgreSQL of a data folder (lib/db/embedded.ts), as `npm start` and the CLI use it
// without DATABASE_URL: started on a new folder (initialised first), loopback only, a password kept
// 0600 in the folder; the CLI joins a running server's and stops only what it started; a second
// server on the folder is refused; a killed owner leaves nothing running nor anything that blocks
// the next start; an old PGlite folder is refused with what to do. As root PostgreSQL runs as the
// system user postgres, and a normal user runs it as themselves (checked here when run as root).
import { type ChildProcess, execFileSync } from "node:child_process";
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { NEVER_MS } from "./support/bounds";
import { killGroup, runNode, startNode, stopAll, stopGroup } from "./support/processes";
import { eventually } from "./support/wait";

const asRoot = process.getuid?.() === 0;
let root = "";
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "finca-embedded-"));
  // Passable by the system user postgres, and by the normal user below.
  await chmod(root, 0o711);
});
afterEach(stopAll);
afterAll(() => rm(root, { recursive: true, force: true }));

let folders = 0;
const newFolder = () => path.join(root, `data-${++folders}`);

/** The processes (PostgreSQL's and its keeper) running on `folder`'s cluster. */
async function processesOf(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir("/proc")).filter((name) => /^\d+$/.test(name))) {
    const command = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (command.includes(path.join(folder, "postgres"))) found.push(`${pid} ${command.replaceAll("\0", " ")}`);
  }
  return found;
}

const env = (folder: string) => ({ FINCA_DATA_DIR: folder, DATABASE_URL: undefined, LOG_LEVEL: "warn" });

/** Starts the holder (test/support/embedded-holder.ts) and waits for its `ready` line. */
async function hold(folder: string, user?: { uid: number; gid: number }): Promise<ChildProcess> {
  const child = startNode("test/support/embedded-holder.ts", [], { env: env(folder), user });
  let output = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (output += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (output += d));
  await eventually(`the holder opens ${folder}`, () => {
    if (child.exitCode !== null) throw new Error(`the holder ended: ${output}`);
    return output.includes("ready embedded");
  });
  return child;
}

const finca = (folder: string, ...args: string[]) =>
  runNode("scripts/finca.ts", args, { env: env(folder), timeoutMs: NEVER_MS });

/** postmaster.pid's fields: pid, folder, start, port, sockets, listen address, key, status. */
const postmaster = async (folder: string) =>
  (await readFile(path.join(folder, "postgres", "postmaster.pid"), "utf8")).split("\n");

describe.sequential("embedded PostgreSQL", () => {
  let folder = "";
  beforeAll(() => {
    folder = newFolder();
  });

  it("starts on a new folder: loopback only, a generated password kept 0600, as the system user under root", async () => {
    const holder = await hold(folder);
    const [pid, , , port, sockets, address, , status] = await postmaster(folder);
    expect([address, sockets, status?.trim()]).toEqual(["127.0.0.1", "", "ready"]);
    const password = await readFile(path.join(folder, "postgres-password"), "utf8");
    expect((await stat(path.join(folder, "postgres-password"))).mode & 0o777).toBe(0o600);
    expect(password.length).toBeGreaterThanOrEqual(24);

    // The password is asked for: without it the server refuses, with it the folder's database answers.
    const connect = async (pw?: string) => {
      const client = new pg.Client({
        host: "127.0.0.1",
        port: Number(port),
        user: "postgres",
        password: pw,
        database: "finca",
      });
      await client.connect();
      try {
        return (await client.query("select current_user as who")).rows[0].who as string;
      } finally {
        await client.end();
      }
    };
    await expect(connect("not-the-password")).rejects.toThrow(/password authentication failed/);
    expect(await connect(password)).toBe("postgres");

    const serverUser = execFileSync("ps", ["-o", "user=", "-p", pid!], { encoding: "utf8" }).trim();
    expect(serverUser).toBe(asRoot ? "postgres" : execFileSync("id", ["-un"], { encoding: "utf8" }).trim());
    await stopGroup(holder);
  });

  it("the CLI joins the running server's PostgreSQL and leaves it running; a second server is refused", async () => {
    const holder = await hold(folder);
    const [pid] = await postmaster(folder);
    const created = await finca(folder, "keys", "create", "--partner", "Acme", "--mode", "test");
    expect(created.code, created.stderr).toBe(0);
    expect((await finca(folder, "partners", "list")).stdout).toContain("Acme");
    // The same server, still up.
    expect((await postmaster(folder))[0]).toBe(pid);
    expect(process.kill(Number(pid), 0)).toBe(true);

    const second = await runNode("test/support/embedded-holder.ts", [], { env: env(folder), timeoutMs: NEVER_MS });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `The data folder ${folder} is in use: its PostgreSQL was started by another Finca process (${holder.pid}`,
    );
    await stopGroup(holder);
  });

  it("stops with its owner: SIGTERM, and a crash (SIGKILL); the next start finds nothing in its way", async () => {
    const holder = await hold(folder);
    await stopGroup(holder);
    expect(await processesOf(folder)).toEqual([]);
    await expect(stat(path.join(folder, "postgres.owner"))).rejects.toThrow(/ENOENT/);

    // Killed: the keeper notices and stops the server; its owner file and pid file are left behind.
    const killed = await hold(folder);
    await killGroup(killed);
    await eventually("the killed owner's PostgreSQL stops", async () => (await processesOf(folder)).length === 0);
    // The CLI, which starts the folder's server itself when none runs, then stops it.
    const listed = await finca(folder, "partners", "list");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("Acme");
    expect(await processesOf(folder)).toEqual([]);
  });

  it("a cluster a first start left without its database (killed after initdb) starts, making it", async () => {
    const holder = await hold(folder);
    const port = (await postmaster(folder))[3]!;
    const password = (await readFile(path.join(folder, "postgres-password"), "utf8")).trim();
    const admin = new pg.Client({
      host: "127.0.0.1",
      port: Number(port),
      user: "postgres",
      password,
      database: "postgres",
    });
    await admin.connect();
    try {
      await admin.query("drop database finca with (force)");
    } finally {
      await admin.end();
    }
    await stopGroup(holder);
    const listed = await finca(folder, "partners", "list");
    expect(listed.code, listed.stderr).toBe(0);
    expect(await processesOf(folder)).toEqual([]);
  });

  it("a postmaster.pid naming a live process that is not this cluster's server does not block the start", async () => {
    // PostgreSQL alone would refuse it ("lock file already exists"): the pid was reused.
    const file = path.join(folder, "postgres", "postmaster.pid");
    await writeFile(file, `${process.pid}\n${folder}/postgres\n0\n5\n\n127.0.0.1\n0 0\nready\n`);
    const listed = await finca(folder, "partners", "list");
    expect(listed.code, listed.stderr).toBe(0);
    expect(await processesOf(folder)).toEqual([]);
  });
});

it("an earlier Finca's PGlite folder is refused, saying what it is and how to move its data", async () => {
  const folder = newFolder();
  await mkdir(path.join(folder, "base"), { recursive: true });
  await writeFile(path.join(folder, "PG_VERSION"), "17\n");
  const run = await finca(folder, "partners", "list");
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`The data folder ${folder} holds a PGlite database`);
  expect(run.stderr).toContain(`mv ${folder} ${folder}-pglite`);
  expect(run.stderr).toContain("pg_dump");
  expect(await processesOf(folder)).toEqual([]);
});

it.runIf(asRoot)("a normal user runs PostgreSQL as themselves", async () => {
  const folder = newFolder();
  const nobody = {
    uid: Number(execFileSync("id", ["-u", "nobody"]).toString()),
    gid: Number(execFileSync("id", ["-g", "nobody"]).toString()),
  };
  await mkdir(folder);
  await chown(folder, nobody.uid, nobody.gid);
  const holder = await hold(folder, nobody);
  const [pid] = await postmaster(folder);
  expect(execFileSync("ps", ["-o", "uid=", "-p", pid!], { encoding: "utf8" }).trim()).toBe(String(nobody.uid));
  expect((await stat(path.join(folder, "postgres"))).uid).toBe(nobody.uid);
  await stopGroup(holder);
  expect(await processesOf(folder)).toEqual([]);
});
