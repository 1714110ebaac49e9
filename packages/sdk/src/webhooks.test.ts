// verifyWebhook as partners call it: a receiver written in strict TypeScript compiles with Node's
// `req.headers`, a Fetch Request's `headers` and a plain object; and each of them verifies a
// delivery signed as Finca signs it (standardwebhooks), over a real node:http server too.
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Webhook } from "standardwebhooks";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { verifyWebhook } from "./index";

const SDK = fileURLToPath(new URL("./index.ts", import.meta.url));

/** A partner's receiver: node:http (Express's `req.headers` is the same type), a Fetch handler, a plain object. */
const RECEIVER = `
import { createServer } from "node:http";
import { verifyWebhook, type WebhookEvent } from "@finca/sdk";

const secret = process.env.FINCA_WEBHOOK_SECRET ?? "";

export const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    try {
      const event: WebhookEvent = verifyWebhook(Buffer.concat(chunks), req.headers, secret);
      if (event.type === "property.enriched") console.log(event.data.cadastral_reference);
      res.statusCode = 204;
    } catch {
      res.statusCode = 400;
    }
    res.end();
  });
});

export async function POST(request: Request): Promise<Response> {
  const event = verifyWebhook(await request.text(), request.headers, secret);
  return Response.json({ type: event.type });
}

export const plain = (body: string, headers: Record<string, string>) => verifyWebhook(body, headers, secret).type;
`;

const ROOT = path.dirname(SDK);
/** Where the receiver and the SDK's declarations live for the compiler: in memory, beside the SDK's dependencies. */
const VIRTUAL = path.join(ROOT, "__partner__");

/** The SDK's declarations as its build emits them (`tsc -p packages/sdk`), in memory. */
function sdkDeclarations(): Map<string, string> {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, "..", "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  )!;
  const files = new Map<string, string>();
  const options = { ...config.options, emitDeclarationOnly: true, outDir: path.join(VIRTUAL, "sdk") };
  const emitted = ts.createProgram(config.fileNames, options).emit(undefined, (name, text) => files.set(name, text));
  expect(emitted.diagnostics).toEqual([]);
  return files;
}

/**
 * Diagnostics of a receiver compiled as a strict Node.js project that installed the SDK: against
 * its declarations (as a partner's compiler sees the package), every library file checked.
 */
function compileReceiver(source: string, declarations: Map<string, string>): string[] {
  const file = path.join(VIRTUAL, "receiver.ts");
  const files = new Map([...declarations, [file, source]]);
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    // A Node.js project without the DOM library: Headers, Request and Response come from @types/node.
    lib: ["lib.es2023.d.ts"],
    types: ["node"],
    paths: { "@finca/sdk": [path.join(VIRTUAL, "sdk", "index.d.ts")] },
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => {
    const text = files.get(name);
    return text === undefined ? read(name, version, ...rest) : ts.createSourceFile(name, text, version);
  };
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => files.has(name) || exists(name);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (name) => name.startsWith(VIRTUAL) || (directoryExists?.(name) ?? true);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  return ts
    .getPreEmitDiagnostics(ts.createProgram([file], options, host))
    .map(
      (d) =>
        `${d.file ? path.relative(ROOT, d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
}

const secret = `whsec_${Buffer.from("a-test-secret-of-enough-bytes-32").toString("base64")}`;
const body = JSON.stringify({ type: "webhook.test", timestamp: "2026-11-28T20:00:00Z", data: { message: "hi" } });
function signed(id = "msg_1") {
  const now = new Date();
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, now, body),
  };
}

describe("verifyWebhook", () => {
  it("compiles in a strict TypeScript receiver with Node's, Fetch's and plain headers", () => {
    const declarations = sdkDeclarations();
    expect(compileReceiver(RECEIVER, declarations)).toEqual([]);
    // The check can fail: a header value of the wrong type is still a compile error.
    const wrong = compileReceiver(
      `${RECEIVER}\nplain("{}", { "webhook-id": 1 } as never); verifyWebhook("{}", 1, "");`,
      declarations,
    );
    expect(wrong.join("\n")).toMatch(/'number' is not assignable to parameter of type 'WebhookHeaders'/);
  }, 120_000);

  it("verifies a delivery from node:http's req.headers, bytes as received", async () => {
    const results: string[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        try {
          results.push(verifyWebhook(Buffer.concat(chunks), req.headers, secret).type);
          res.statusCode = 204;
        } catch (error) {
          results.push(String(error));
          res.statusCode = 400;
        }
        res.end();
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      expect((await fetch(url, { method: "POST", body, headers: signed() })).status).toBe(204);
      const forged = await fetch(url, { method: "POST", body: body.replace("hi", "ho"), headers: signed() });
      expect(forged.status).toBe(400);
    } finally {
      server.close();
    }
    expect(results[0]).toBe("webhook.test");
    expect(results[1]).toMatch(/No matching signature/);
  });

  it("verifies a Fetch Request's Headers and a plain object in any case", async () => {
    const request = new Request("https://receiver.example/hooks", { method: "POST", body, headers: signed() });
    expect(verifyWebhook(await request.text(), request.headers, secret).type).toBe("webhook.test");
    const upper = Object.fromEntries(Object.entries(signed()).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(body, upper, secret).type).toBe("webhook.test");
  });

  it("reads a header sent twice as a list, and refuses what is missing or ambiguous", () => {
    const headers = signed();
    const listed: IncomingHttpHeaders = {
      ...headers,
      "webhook-signature": ["v1,bm90LXRoZS1zaWduYXR1cmU=", headers["webhook-signature"]],
    };
    expect(verifyWebhook(body, listed, secret).type).toBe("webhook.test");
    const { "webhook-id": _, ...noId } = headers;
    expect(() => verifyWebhook(body, noId, secret)).toThrow(/Missing required headers/);
    expect(() => verifyWebhook(body, { ...headers, "webhook-id": ["msg_1", "msg_2"] }, secret)).toThrow(
      /No matching signature/,
    );
  });
});
