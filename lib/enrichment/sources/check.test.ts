// `registers check` against replayed registers (constructed answers, see the fixture READMEs).
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { liveRegisters } from "@/lib/registers";
import { createSources } from ".";
import { checkRegisters, type CheckTarget } from "./check";
import { startReplayServer, WAF_PAGE, type ReplayServer } from "./testing/replay-server";

const fixture = (folder: string, name: string) => readFileSync(path.join(__dirname, folder, "fixtures", name), "utf8");

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
  server.on(/Consulta_DNPRC/, {
    body: fixture("cadastre", "json-dnprc-20char-single-2749704YJ0624N0001DI.pretty.json"),
  });
  server.on(/Consulta_CPMRC/, { body: fixture("cadastre", "json-cpmrc-6344205CF7664S.json") });
  server.on(/j6ii-t3w2/, { body: "[]" });
  server.on(/GA_OD_Core/, { body: "[]" });
  server.on(/26_GCEE/, { body: fixture("registries", "wfs-ceeedificios-unit-2749704YJ0624N0001DI.geojson") });
  server.on(/0801_GESIEE/, { body: WAF_PAGE, contentType: "text/html" });
});
afterAll(() => server.close());

const TARGETS: CheckTarget[] = [
  { register: "catastro-ovc", source: "cadastre", reference: "2749704YJ0624N0001DI", province: "46" },
  { register: "icaen-socrata", source: "energy_certificate", reference: "0625102DF3802F0001QI", province: "08" },
  { register: "gva-wfs", source: "energy_certificate", reference: "2749704YJ0624N0001DI", province: "46" },
  { register: "aragon-gaodcore", source: "energy_certificate", reference: "7541901XM8174S0001SQ", province: "50" },
  { register: "icaen-socrata", source: "ite", reference: "0625102DF3802F0001QI", province: "08" },
  { register: "gva-gesiee", source: "ite", reference: "2749704YJ0624N0001DI", province: "46" },
];

it("reports each live register: reachable, parsed, outcome and latency", async () => {
  const live = liveRegisters({
    CATASTRO_BASE_URL: server.url,
    CEE_CATALONIA_BASE_URL: server.url,
    CEE_VALENCIA_BASE_URL: `${server.url}/26_GCEE`,
    CEE_ARAGON_BASE_URL: server.url,
    ITE_VALENCIA_BASE_URL: `${server.url}/0801_GESIEE`,
  });
  const checks = await checkRegisters(createSources(loadConfig({}), { live }).live, TARGETS);
  const ok = { reachable: true, parsed: true };
  const [CATALONIA, ARAGON] = ["0625102DF3802F0001QI", "7541901XM8174S0001SQ"];
  expect(checks.map(({ latencyMs, ...c }) => (expect(latencyMs).toBeGreaterThanOrEqual(0), c))).toEqual([
    { register: "catastro-ovc", source: "cadastre", reference: "2749704YJ0624N0001DI", ...ok, outcome: "found" },
    { register: "icaen-socrata", source: "energy_certificate", reference: CATALONIA, ...ok, outcome: "not_found" },
    { register: "gva-wfs", source: "energy_certificate", reference: "2749704YJ0624N0001DI", ...ok, outcome: "found" },
    { register: "aragon-gaodcore", source: "energy_certificate", reference: ARAGON, ...ok, outcome: "not_found" },
    // No IITE code on record: Catalonia has no inspection register, so the answer is found, unsupported.
    { register: "icaen-socrata", source: "ite", reference: "0625102DF3802F0001QI", ...ok, outcome: "found" },
    {
      register: "gva-gesiee",
      source: "ite",
      reference: "2749704YJ0624N0001DI",
      reachable: true,
      parsed: false,
      outcome: expect.stringMatching(/^upstream_html: /),
    },
  ]);
  // Catastro's coordinates service is asked where CATASTRO_BASE_URL points, not at Catastro itself.
  expect(server.count(/Consulta_CPMRC/)).toBe(1);
});

it("an address that does not answer is unreachable", async () => {
  // Port 9 (discard) on loopback: nothing listens, the connection is refused.
  const nowhere = "http://127.0.0.1:9";
  const live = liveRegisters({
    CATASTRO_BASE_URL: nowhere,
    CEE_CATALONIA_BASE_URL: nowhere,
    CEE_VALENCIA_BASE_URL: nowhere,
    CEE_ARAGON_BASE_URL: nowhere,
    ITE_VALENCIA_BASE_URL: nowhere,
  });
  for (const check of await checkRegisters(createSources(loadConfig({}), { live }).live, TARGETS)) {
    expect(check).toMatchObject({ reachable: false, parsed: false, outcome: expect.stringMatching(/^network: /) });
  }
});
