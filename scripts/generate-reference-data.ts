// Regenerates lib/reference-data/data/*.json from the research data folder. The product reads only
// the generated (committed) files; run this when the sources are updated, then run the tests.
//   npx tsx scripts/generate-reference-data.ts [path/to/shared/data]
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.resolve(process.argv[2] ?? path.join(root, "../shared/data"));
const out = path.join(root, "lib/reference-data/data");

/** Splits one CSV line; a few names are quoted because they contain commas. */
function cells(line: string): string[] {
  return [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => (m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2]!));
}

function csv(file: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(path.join(source, file), "utf8").trim().split(/\r?\n/);
  const columns = cells(header!);
  return lines.map((line) => {
    const values = cells(line);
    if (values.length !== columns.length) throw new Error(`${file}: ${values.length} cells, expected ${columns.length}: ${line}`);
    return Object.fromEntries(columns.map((c, i) => [c, values[i]!]));
  });
}

const json = (file: string) => JSON.parse(readFileSync(path.join(source, file), "utf8"));

const provincesSource = json("provinces.json").provinces as Record<
  string,
  { code: string; name: string; ccaa: string; ccaa_code: string; catastro_dgc_competent: boolean }
>;
const provinces = Object.fromEntries(
  Object.values(provincesSource).map((p) => [p.code, { name: p.name, ccaa: p.ccaa, ccaaCode: p.ccaa_code, catastro: p.catastro_dgc_competent }]),
);

const zones = json("cte-climate-zones.json").zones as Record<string, { max_altitude_m: number | null; zone: string }[]>;
const climateBands = Object.fromEntries(Object.entries(zones).map(([code, bands]) => [code, bands.map((b) => [b.max_altitude_m, b.zone])]));

const catastroByIne = new Map(csv("municipality-codes-ine-catastro.csv").map((r) => [r.ine_code!, r.catastro_code!]));
const rows = csv("municipalities-altitude-cte.csv");
// One array per municipality (keys would double the size):
// [ine code, name, altitude m, population, catastro code | "", capital reference zone | ""].
// Altitude is kept as given: rounding the few decimal values could move one across a band edge.
const municipalities = rows.map((r) => [
  r.ine_code,
  r.name,
  Number(r.altitude_m),
  Number(r.population) || 0,
  catastroByIne.get(r.ine_code!) ?? "",
  r.cte2019_zone_capital_override,
]);
// The source's own zone per municipality, only for the test that checks our band lookup against it.
const expectedZones = Object.fromEntries(rows.map((r) => [r.ine_code!, r.cte2019_zone!]));

for (const [ine, , altitude] of municipalities) {
  if (!Number.isFinite(altitude)) throw new Error(`municipality ${ine}: altitude is not a number`);
  if (!provinces[String(ine).slice(0, 2)]) throw new Error(`municipality ${ine}: unknown province`);
}

writeFileSync(path.join(out, "provinces.json"), JSON.stringify(provinces) + "\n");
writeFileSync(path.join(out, "climate-bands.json"), JSON.stringify(climateBands) + "\n");
writeFileSync(path.join(out, "municipalities.json"), JSON.stringify(municipalities) + "\n");
writeFileSync(path.join(out, "expected-zones.json"), JSON.stringify(expectedZones) + "\n");
console.log(
  `provinces ${Object.keys(provinces).length}, climate bands ${Object.keys(climateBands).length}, ` +
    `municipalities ${municipalities.length} (${municipalities.filter((m) => m[4]).length} with a Catastro code)`,
);
