// Child processes of tests and benchmarks. Each is node itself (a TypeScript entry point runs
// through tsx's loader in that same process), never an npx/npm wrapper, whose killing leaves the
// real process running; and each leads a process group of its own, so stopping it stops whatever
// it started too (`next start`'s server, say). A test stops its children in afterEach/afterAll
// (`afterEach(stopAll)`), passed or failed; groups still running when this process exits are
// killed; and a child whose parent dies without stopping it stops itself (exit-with-parent.mjs).
//
//   const server = startNode("node_modules/next/dist/bin/next", ["start", "-p", port], { env });
//   afterAll(() => stopGroup(server));
//   const run = await runNode("scripts/finca.ts", ["keys", "list"], { env, timeoutMs: 120_000 });
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { fileURLToPath } from "node:url";

const GUARD = fileURLToPath(new URL("./exit-with-parent.mjs", import.meta.url));

export interface NodeOptions {
  /** Added to this process's environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Node's own options, before the script (`--cpu-prof`, say). */
  nodeArgs?: string[];
  /** Default: no stdin, stdout and stderr piped. */
  stdio?: StdioOptions;
  /** Run as this user (a root test checking what a normal user gets). */
  user?: { uid: number; gid: number };
}

// One set per process, however many test files import this module (vitest isolates modules per
// file), with one exit hook: whatever is still running when this process exits is killed.
const registry = globalThis as unknown as Record<symbol, Set<ChildProcess> | undefined>;
const running = (registry[Symbol.for("finca.test.processGroups")] ??= (() => {
  const set = new Set<ChildProcess>();
  process.on("exit", () => {
    for (const child of set) signalGroup(child, "SIGKILL");
  });
  return set;
})());

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // The group is gone already.
  }
}

const ended = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function exited(child: ChildProcess, ms: number): Promise<void> {
  if (ended(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** `node [nodeArgs] <script> [args]` as the leader of a new process group; a `.ts` script runs through tsx's loader. */
export function startNode(script: string, args: string[] = [], options: NodeOptions = {}): ChildProcess {
  const loader = /\.[cm]?ts$/.test(script) ? ["--import", "tsx"] : [];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, "--import", GUARD, script, ...args], {
    cwd: options.cwd,
    ...options.user,
    env: { ...process.env, ...options.env },
    stdio: options.stdio ?? ["ignore", "pipe", "pipe"],
    detached: true,
  });
  if (child.pid === undefined) throw new Error(`could not start node ${script}`);
  running.add(child);
  // Its group may outlive it (a grandchild that ignored SIGTERM): only stopGroup/killGroup forget it.
  return child;
}

const PROGRAM = fileURLToPath(new URL("./run-program.mjs", import.meta.url));

/** A program that is not node (`prometheus`), in a group led by a node wrapper with the same rules. */
export function startProgram(
  command: string,
  args: string[] = [],
  options: Omit<NodeOptions, "nodeArgs"> = {},
): ChildProcess {
  return startNode(PROGRAM, [command, ...args], options);
}

/**
 * SIGTERM to the whole group, then SIGKILL to whatever of it is left once the leader has exited or
 * `graceMs` has passed. Resolves once the leader is gone.
 */
export async function stopGroup(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (!ended(child)) {
    signalGroup(child, "SIGTERM");
    await exited(child, graceMs);
  }
  await killGroup(child);
}

/** SIGKILL to the whole group at once, as a crash would; resolves once the leader is gone. */
export async function killGroup(child: ChildProcess): Promise<void> {
  signalGroup(child, "SIGKILL");
  await exited(child, 5_000);
  running.delete(child);
}

/** Stops every group this process started and has not stopped yet: `afterEach(stopAll)`. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stopGroup(child)));
}

export interface NodeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a node script to its end and resolves with how it ended and its output. A run still going
 * after `timeoutMs` is a hang, not slowness: its group is killed and the promise rejects.
 */
export async function runNode(
  script: string,
  args: string[],
  options: NodeOptions & { timeoutMs: number },
): Promise<NodeRun> {
  const child = startNode(script, args, options);
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  try {
    return await new Promise<NodeRun>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(
            `node ${script} ${args.join(" ")} did not end within ${options.timeoutMs} ms (killed)\n${stdout}\n${stderr}`,
          ),
        );
      }, options.timeoutMs);
      child.once("error", reject);
      // 'close': the exit and the end of its output.
      child.once("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr });
      });
    });
  } finally {
    await killGroup(child);
  }
}
