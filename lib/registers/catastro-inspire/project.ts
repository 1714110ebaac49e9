// Coordinates of Catastro's files to WGS 84 longitude and latitude, with proj4 (a well-kept projection
// library). The INSPIRE files use the UTM zone of their province: ETRS89 for the Peninsula and the
// Balearics (EPSG 25829–25831) and the Canaries' ETRS89/REGCAN95 zone 28 (25828), WGS 84 UTM 28N in
// older Canary files (32628), or geographic coordinates (4326, 4258). ETRS89 and WGS 84 differ by
// well under a metre in Spain: treated as one datum here, which a centroid can afford.
import proj4 from "proj4";

const UTM = (zone: number, datum: string) => `+proj=utm +zone=${zone} ${datum} +units=m +no_defs`;
const ETRS89 = "+ellps=GRS80 +towgs84=0,0,0,0,0,0,0";
const WGS84 = "+proj=longlat +datum=WGS84 +no_defs";

/** The reference systems a Catastro file may use, by EPSG code. */
const SYSTEMS: Record<string, string> = {
  "25828": UTM(28, ETRS89),
  "25829": UTM(29, ETRS89),
  "25830": UTM(30, ETRS89),
  "25831": UTM(31, ETRS89),
  "32628": UTM(28, "+datum=WGS84"),
  "4326": WGS84,
  "4258": WGS84,
};

/** Geographic systems, whose GML 3.2 coordinates come latitude first (the EPSG axis order). */
const LATITUDE_FIRST = new Set(["4326", "4258"]);

export const SUPPORTED_EPSG = Object.keys(SYSTEMS);

/** The EPSG code of a GML `srsName` (`urn:ogc:def:crs:EPSG::25830`, `http://www.opengis.net/def/crs/EPSG/0/25830`, `EPSG:25830`). */
export function epsgOf(srsName: string): string | null {
  return /EPSG(?::+|\/0\/)(\d+)\s*$/i.exec(srsName.trim())?.[1] ?? null;
}

export interface LonLat {
  lon: number;
  lat: number;
}

const converters = new Map<string, proj4.Converter>();

/** A point of `epsg` (as the file writes it: first and second coordinate) in WGS 84, rounded to 7 decimals (~1 cm). */
export function toWgs84(epsg: string, first: number, second: number): LonLat {
  const system = SYSTEMS[epsg];
  if (!system)
    throw new Error(`EPSG:${epsg} is not a reference system Catastro's files use (${SUPPORTED_EPSG.join(", ")})`);
  let lon: number;
  let lat: number;
  if (LATITUDE_FIRST.has(epsg)) [lat, lon] = [first, second];
  else {
    let converter = converters.get(epsg);
    if (!converter) converters.set(epsg, (converter = proj4(system, WGS84)));
    [lon, lat] = converter.forward([first, second]) as [number, number];
  }
  const round = (value: number) => Math.round(value * 1e7) / 1e7;
  return { lon: round(lon), lat: round(lat) };
}
