// Regenerates lib/reference-data/data/*.json from the research data folder. The product reads only
// the generated (committed) files; run this when the sources are updated, then run the tests.
//   npx tsx scripts/generate-reference-data.ts [path/to/shared/data]
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse/sync";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.resolve(process.argv[2] ?? path.join(root, "../shared/data"));
const out = path.join(root, "lib/reference-data/data");

function csv(file: string, options: { delimiter?: string; encoding?: BufferEncoding } = {}): Record<string, string>[] {
  return parse(readFileSync(path.join(source, file), options.encoding ?? "utf8"), {
    columns: true,
    delimiter: options.delimiter ?? ",",
    skip_empty_lines: true,
  });
}

const json = (file: string) => JSON.parse(readFileSync(path.join(source, file), "utf8"));

const provincesSource = json("provinces.json").provinces as Record<
  string,
  { code: string; name: string; ccaa: string; ccaa_code: string; catastro_dgc_competent: boolean }
>;
const provinces = Object.fromEntries(
  Object.values(provincesSource).map((p) => [
    p.code,
    { name: p.name, ccaa: p.ccaa, ccaaCode: p.ccaa_code, catastro: p.catastro_dgc_competent },
  ]),
);

const zones = json("cte-climate-zones.json").zones as Record<string, { max_altitude_m: number | null; zone: string }[]>;
const climateBands = Object.fromEntries(
  Object.entries(zones).map(([code, bands]) => [code, bands.map((b) => [b.max_altitude_m, b.zone])]),
);

const catastroByIne = new Map(csv("municipality-codes-ine-catastro.csv").map((r) => [r.ine_code!, r.catastro_code!]));
const rows = csv("municipalities-altitude-cte.csv");
// The municipality's area (IGN SUPERFICIE, hectares with a decimal comma), by 5-digit INE code.
const hectares = new Map(
  csv("ign-municipios-original-latin1.csv", { delimiter: ";", encoding: "latin1" }).map((r) => [
    r.COD_INE!.slice(0, 5),
    Number(r.SUPERFICIE!.replace(",", ".")),
  ]),
);
// One array per municipality (keys would double the size): [ine code, name, altitude m,
// population, catastro code | "", capital reference zone | "", capital latitude, capital
// longitude (ETRS89 ≈ WGS 84, 5 decimals ≈ 1 m), area km²]. Altitude is kept as given: rounding
// the few decimal values could move one across a band edge.
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
const municipalities = rows.map((r) => [
  r.ine_code,
  r.name,
  Number(r.altitude_m),
  Number(r.population) || 0,
  catastroByIne.get(r.ine_code!) ?? "",
  r.cte2019_zone_capital_override,
  round(Number(r.lat_etrs89), 5),
  round(Number(r.lon_etrs89), 5),
  round((hectares.get(r.ine_code!) ?? 0) / 100, 2),
]);
// The source's own zone per municipality, only for the test that checks our band lookup against it.
const expectedZones = Object.fromEntries(rows.map((r) => [r.ine_code!, r.cte2019_zone!]));

for (const [ine, , altitude, , , , lat, lon, area] of municipalities) {
  if (!Number.isFinite(altitude)) throw new Error(`municipality ${ine}: altitude is not a number`);
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || !(Number(area) > 0))
    throw new Error(`municipality ${ine}: no coordinates or area`);
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
