// Where scripts/e2e-server.mjs copies everything the server prints (stdout and stderr), so the
// portal tests can read the server's logs after driving it.
import { tmpdir } from "node:os";
import path from "node:path";

export const SERVER_LOG = path.join(tmpdir(), `finca-e2e-server-${process.env.E2E_PORT ?? 3217}.log`);
