// Regenerates lib/reference-data/data/*.json from the research data folder (../shared/data).
// The product reads only the generated files; run this when the sources are updated.
//   npx tsx scripts/generate-reference-data.ts [path/to/shared/data]
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const source = path.resolve(process.argv[2] ?? "../shared/data");
const out = path.resolve("lib/reference-data/data");

/** Splits one CSV line; a few names are quoted because they contain commas. */
function cells(line: string): string[] {
  return [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => (m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2]!));
}

function csv(file: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(path.join(source, file), "utf8").trim().split(/\r?\n/);
  const columns = cells(header!);
  return lines.map((line) => {
    const values = cells(line);
    return Object.fromEntries(columns.map((c, i) => [c, values[i] ?? ""]));
  });
}

const provincesSource = JSON.parse(readFileSync(path.join(source, "provinces.json"), "utf8")).provinces as Record<
  string,
  { code: string; name: string; ccaa: string; ccaa_code: string; catastro_dgc_competent: boolean }
>;
const provinces = Object.fromEntries(
  Object.values(provincesSource).map((p) => [p.code, { name: p.name, ccaa: p.ccaa, ccaaCode: p.ccaa_code, catastro: p.catastro_dgc_competent }]),
);

const zones = JSON.parse(readFileSync(path.join(source, "cte-climate-zones.json"), "utf8")).zones as Record<string, { max_altitude_m: number | null; zone: string }[]>;
const climateBands = Object.fromEntries(Object.entries(zones).map(([code, bands]) => [code, bands.map((b) => [b.max_altitude_m, b.zone])]));

const catastroByIne = new Map(csv("municipality-codes-ine-catastro.csv").map((r) => [r.ine_code!, r.catastro_code!]));
// [ine code, name, altitude m, population, catastro code | "", capital reference zone | ""]
const municipalities = csv("municipalities-altitude-cte.csv").map((r) => [
  r.ine_code,
  r.name,
  Math.round(Number(r.altitude_m)),
  Number(r.population) || 0,
  catastroByIne.get(r.ine_code!) ?? "",
  r.cte2019_zone_capital_override ?? "",
]);
// Kept only to verify our zone computation against the source's own column (see tests).
const expectedZones = Object.fromEntries(csv("municipalities-altitude-cte.csv").map((r) => [r.ine_code!, r.cte2019_zone!]));

writeFileSync(path.join(out, "provinces.json"), JSON.stringify(provinces) + "\n");
writeFileSync(path.join(out, "climate-bands.json"), JSON.stringify(climateBands) + "\n");
writeFileSync(path.join(out, "municipalities.json"), JSON.stringify(municipalities) + "\n");
writeFileSync(path.join(out, "expected-zones.json"), JSON.stringify(expectedZones) + "\n");
console.log(`provinces ${Object.keys(provinces).length}, municipalities ${municipalities.length}`);
