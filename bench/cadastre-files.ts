// Generated Catastro files for the benchmarks (#41): a municipality (28900) of `parcels` parcels, each
// with `units` units, in the shapes of the constructed samples (lib/registers/catastro-*/fixtures: CAT
// records 11, 13, 15 and INSPIRE CP, BU and AD GML).
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkLetters } from "@/lib/cadastral-reference";

/** Parcel i's reference: 7 digits and a made-up sheet, unique per i (no check letters in a parcel reference). */
export const parcel = (i: number, sheet = "VK4704F") => `${String(i).padStart(7, "0")}${sheet}`;

/** Unit u (1-based) of parcel i, with its check letters. */
export const unit = (i: number, u: number, sheet = "VK4704F") => {
  const first18 = parcel(i, sheet) + String(u).padStart(4, "0");
  return first18 + checkLetters(first18);
};

function catRecord(type: number, fields: [number, string][]): string {
  const chars = [...String(type).padStart(2, "0").padEnd(1000, " ")];
  for (const [start, value] of fields) chars.splice(start - 1, value.length, ...value);
  return chars.join("");
}

async function writeLines(file: string, lines: () => Generator<string>, encoding: BufferEncoding = "latin1") {
  // Readable by the PostgreSQL server, whose COPY reads the CAT file itself.
  const out = createWriteStream(file, { mode: 0o644 });
  for (const line of lines()) if (!out.write(Buffer.from(`${line}\r\n`, encoding))) await once(out, "drain");
  out.end();
  await once(out, "finish");
}

function* catLines(parcels: number, units: number): Generator<string> {
  const place: [number, string][] = [
    [24, "28"],
    [26, "900"],
  ];
  yield catRecord(1, [[40, "20260315"]]);
  for (let i = 0; i < parcels; i++) {
    const p = parcel(i);
    yield catRecord(11, [
      ...place,
      [31, p],
      [51, "28"],
      [81, "079"],
      [164, "ALCALÁ"],
      [241, "28009"],
      [296, "0000000512"],
    ]);
    yield catRecord(13, [...place, [31, p], [45, "0001"], [296, String(1900 + (i % 120))]]);
    for (let u = 1; u <= units; u++) {
      const seq = String(u).padStart(4, "0");
      yield catRecord(15, [
        ...place,
        [29, "UR"],
        [31, p],
        [45, seq],
        [49, checkLetters(p + seq)],
        [283, "28009"],
        [372, String(1900 + (i % 120))],
        [428, "V"],
        [442, "0000000090"],
        [462, "025000000"],
      ]);
    }
  }
  const count = (n: number) => String(n).padStart(7, "0");
  yield catRecord(90, [
    [10, count(parcels)],
    [24, count(parcels)],
    [31, count(0)],
    [38, count(parcels * units)],
  ]);
}

const ring = (x: number, y: number) => `${x} ${y} ${x + 20} ${y} ${x + 20} ${y + 20} ${x} ${y + 20} ${x} ${y}`;
const at = (i: number) => [400_000 + (i % 1000) * 25, 4_400_000 + Math.floor(i / 1000) * 25] as const;

function* gml(kind: "CP" | "BU" | "AD", parcels: number, units: number): Generator<string> {
  yield '<?xml version="1.0" encoding="ISO-8859-1"?>';
  yield `<gml:FeatureCollection xmlns:gml="http://www.opengis.net/gml/3.2" xmlns:xlink="http://www.w3.org/1999/xlink" gml:id="ES.SDGC.${kind}">`;
  for (let i = 0; i < parcels; i++) {
    const p = parcel(i);
    const [x, y] = at(i);
    const surface = `<gml:Surface srsName="urn:ogc:def:crs:EPSG::25830"><gml:patches><gml:PolygonPatch><gml:exterior><gml:LinearRing><gml:posList srsDimension="2" count="5">${ring(x, y)}</gml:posList></gml:LinearRing></gml:exterior></gml:PolygonPatch></gml:patches></gml:Surface>`;
    if (kind === "CP")
      yield `<gml:featureMember><cp:CadastralParcel gml:id="ES.SDGC.CP.${p}"><cp:areaValue uom="m2">512</cp:areaValue><cp:beginLifespanVersion>2014-09-15T00:00:00</cp:beginLifespanVersion><cp:geometry>${surface}</cp:geometry></cp:CadastralParcel></gml:featureMember>`;
    else if (kind === "BU")
      yield `<gml:featureMember><bu-ext2d:Building gml:id="ES.SDGC.BU.${p}"><bu-core2d:beginLifespanVersion>2015-11-24T00:00:00</bu-core2d:beginLifespanVersion><bu-core2d:dateOfConstruction><bu-core2d:DateOfEvent><bu-core2d:beginning>1968-01-01T00:00:00</bu-core2d:beginning><bu-core2d:end>1968-01-01T00:00:00</bu-core2d:end></bu-core2d:DateOfEvent></bu-core2d:dateOfConstruction><bu-ext2d:geometry>${surface}</bu-ext2d:geometry><bu-ext2d:currentUse>1_residential</bu-ext2d:currentUse><bu-ext2d:numberOfBuildingUnits>${units}</bu-ext2d:numberOfBuildingUnits><bu-ext2d:numberOfDwellings>${units}</bu-ext2d:numberOfDwellings></bu-ext2d:Building></gml:featureMember>`;
    else
      yield `<gml:featureMember><AD:Address gml:id="ES.SDGC.AD.28.900.${i % 500}.${i}.${p}"><AD:position><AD:GeographicPosition><AD:geometry><gml:Point srsName="urn:ogc:def:crs:EPSG::25830"><gml:pos>${x + 10} ${y}</gml:pos></gml:Point></AD:geometry><AD:specification>Entrance</AD:specification></AD:GeographicPosition></AD:position><AD:locator><AD:AddressLocator><AD:designator><AD:LocatorDesignator><AD:designator>${i % 200}</AD:designator></AD:LocatorDesignator></AD:designator></AD:AddressLocator></AD:locator><AD:component xlink:href="#ES.SDGC.TN.28.900.${i % 500}"/><AD:component xlink:href="#ES.SDGC.PD.28.900.28009"/></AD:Address></gml:featureMember>`;
  }
  if (kind === "AD") {
    for (let s = 0; s < 500; s++)
      yield `<gml:featureMember><AD:ThoroughfareName gml:id="ES.SDGC.TN.28.900.${s}"><AD:name><GN:SpellingOfName><GN:text>CL CALLE ${s}</GN:text></GN:SpellingOfName></AD:name></AD:ThoroughfareName></gml:featureMember>`;
    yield '<gml:featureMember><AD:PostalDescriptor gml:id="ES.SDGC.PD.28.900.28009"><AD:postCode>28009</AD:postCode></AD:PostalDescriptor></gml:featureMember>';
  }
  yield "</gml:FeatureCollection>";
}

export interface CadastreFiles {
  cat: string;
  cp: string;
  bu: string;
  ad: string;
}

/** Writes the CAT file and the three INSPIRE files of the municipality into the temporary folder. */
export async function writeCadastreFiles(parcels: number, units: number): Promise<CadastreFiles> {
  const named = (name: string) => path.join(tmpdir(), `finca-bench-${process.pid}-${name}`);
  const files = {
    cat: named("28_900_U.CAT"),
    cp: named("A.ES.SDGC.CP.28900.cadastralparcel.gml"),
    bu: named("A.ES.SDGC.BU.28900.building.gml"),
    ad: named("A.ES.SDGC.AD.28900.address.gml"),
  };
  await writeLines(files.cat, () => catLines(parcels, units));
  await writeLines(files.cp, () => gml("CP", parcels, units), "utf8");
  await writeLines(files.bu, () => gml("BU", parcels, units), "utf8");
  await writeLines(files.ad, () => gml("AD", parcels, units), "utf8");
  return files;
}
