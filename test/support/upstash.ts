// A real Redis (Debian's redis-server, started on a free port) behind a small Upstash-compatible
// REST front, so @upstash/redis runs its own commands and our Lua script
// against a real server: POST / with one command as a JSON array, /pipeline and /multi-exec with
// several; answers `{result}` or `{error}`, base64-encoding strings when the client asks
// (`Upstash-Encoding: base64`, @upstash/redis's default). The front can be taken down and back.
//   const redis = await startRedis(); const front = await upstashFront(redis.port, "token");
//   UPSTASH_REDIS_REST_URL=front.url UPSTASH_REDIS_REST_TOKEN=token
import type { ChildProcess } from "node:child_process";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import type http from "node:http";
import { Redis } from "ioredis";
import { freePort } from "./ports";
import { startProgram, stopGroup } from "./processes";
import { listen, type LocalServer } from "./receiver";
import { NEVER_MS } from "./bounds";

/** Whether Debian's redis-server is installed here (CI installs it). */
export const redisInstalled = spawnSync("redis-server", ["--version"]).status === 0;

export interface RedisServer {
  port: number;
  /** The process group's leader (redis-server runs under it). */
  pid: number;
  stop(): Promise<void>;
}

/** A throw-away redis-server on a free port: nothing saved to disk, stopped by `stop()`. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = startProgram("redis-server", [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
  ]);
  const probe = new Redis({
    port,
    host: "127.0.0.1",
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on("error", () => {});
  // Polled here, not with wait.ts's `eventually`: benchmarks start it too, outside vitest.
  for (
    const giveUpAt = Date.now() + NEVER_MS;
    (await probe
      .connect()
      .then(() => probe.ping())
      .catch(() => null)) !== "PONG";
  ) {
    if (Date.now() > giveUpAt || child.exitCode !== null) {
      await stopGroup(child);
      throw new Error(`redis-server did not answer on port ${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  probe.disconnect();
  return { port, pid: child.pid!, stop: () => stopGroup(child) };
}

type Reply = Buffer | number | null | Reply[];
type Command = (string | number)[];
const encoded = (reply: Reply, base64: boolean): unknown =>
  Buffer.isBuffer(reply)
    ? reply.toString(base64 ? "base64" : "utf8")
    : Array.isArray(reply)
      ? reply.map((r) => encoded(r, base64))
      : reply;

export interface UpstashFront {
  url: string;
  /** Refuses connections until `up()`: Upstash unreachable. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

// Upstash runs Lua scripts that declare `#!lua flags=allow-key-locking` (@upstash/ratelimit's do);
// Redis refuses a flag it does not know, so the front drops it, and maps the client's hashes of the
// scripts as sent to the hashes of the scripts Redis runs, so EVALSHA finds them as on Upstash.
const UPSTASH_ONLY_FLAGS = new Set(["allow-key-locking"]);
const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");
const runnableHashes = new Map<string, string>();

function runnable(script: string): string {
  return script.replace(/^#!lua flags=([^\n]*)/, (_, flags: string) => {
    const kept = flags.split(",").filter((flag) => !UPSTASH_ONLY_FLAGS.has(flag.trim()));
    return kept.length ? `#!lua flags=${kept.join(",")}` : "#!lua";
  });
}

/** A command as Redis must get it: scripts without Upstash's own flags, hashes mapped to theirs. */
function forRedis([command, ...rest]: Command): [string, ...string[]] {
  const name = String(command).toUpperCase();
  const args = rest.map(String);
  if ((name === "EVAL" || name === "EVAL_RO") && args[0] !== undefined) {
    const script = runnable(args[0]);
    runnableHashes.set(sha1(args[0]), sha1(script));
    return [name, script, ...args.slice(1)];
  }
  if ((name === "EVALSHA" || name === "EVALSHA_RO") && args[0] !== undefined)
    return [name, runnableHashes.get(args[0]) ?? args[0], ...args.slice(1)];
  return [name, ...args];
}

/** The REST front on 127.0.0.1 for the Redis on `redisPort`, wanting `Authorization: Bearer <token>`. */
export async function upstashFront(redisPort: number, token: string): Promise<UpstashFront> {
  const redis = new Redis({ port: redisPort, host: "127.0.0.1" });
  const run = async (sent: Command): Promise<{ result?: Reply; error?: string }> => {
    const [command, ...args] = forRedis(sent);
    try {
      return { result: (await redis.callBuffer(command, ...args)) as Reply };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  const handle = async (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => {
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(value));
    if (req.headers.authorization !== `Bearer ${token}`) return json(401, { error: "Unauthorized" });
    const base64 = req.headers["upstash-encoding"] === "base64";
    const answer = (r: { result?: Reply; error?: string }) =>
      r.error !== undefined ? { error: r.error } : { result: encoded(r.result!, base64) };
    const commands = JSON.parse(body.toString("utf8")) as Command | Command[];
    if (req.url === "/pipeline") return json(200, (await Promise.all((commands as Command[]).map(run))).map(answer));
    if (req.url === "/multi-exec") {
      const replies = (await redis.multi((commands as Command[]).map(forRedis)).exec()) ?? [];
      return json(
        200,
        replies.map(([error, result]) => answer(error ? { error: error.message } : { result: result as Reply })),
      );
    }
    const one = await run(commands as Command);
    return json(one.error !== undefined ? 400 : 200, answer(one));
  };
  const server: LocalServer = await listen((req, body, res) => {
    handle(req, body, res).catch((error: Error) =>
      res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error: error.message })),
    );
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    down: () => server.down(),
    up: () => server.up(),
    async close() {
      await server.close();
      redis.disconnect();
    },
  };
}
