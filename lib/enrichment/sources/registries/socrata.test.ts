import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cataloniaRows } from "@/lib/registers/icaen/client";
import { socrataHeaders } from "./socrata";
import { NEVER_MS } from "@/test/support/bounds";

describe("Socrata app token", () => {
  it("goes to Socrata portals only", () => {
    expect(socrataHeaders("https://analisi.transparenciacatalunya.cat/api/views/j6ii-t3w2/rows.csv", "tok")).toEqual({
      "X-App-Token": "tok",
    });
    expect(socrataHeaders("https://catalegdades.caib.cat/api/views/bhvx-p8vz/rows.csv", "tok")).toEqual({
      "X-App-Token": "tok",
    });
    expect(socrataHeaders("https://opendata.aragon.es/GA_OD_Core/download?view_id=237", "tok")).toEqual({});
    expect(socrataHeaders("https://analisi.transparenciacatalunya.cat/x", undefined)).toEqual({});
  });

  describe("on the live Catalan client", () => {
    const seen: (string | undefined)[] = [];
    let server: http.Server;
    let base = "";
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        seen.push(req.headers["x-app-token"] as string | undefined);
        res.writeHead(200, { "Content-Type": "application/json" }).end("[]");
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it("is sent when configured, and only then", async () => {
      await cataloniaRows({ base, timeoutMs: NEVER_MS, appToken: "tok" }, "0625102DF3802F");
      await cataloniaRows({ base, timeoutMs: NEVER_MS }, "0625102DF3802F");
      expect(seen).toEqual(["tok", undefined]);
    });
  });
});
