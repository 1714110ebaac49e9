// Catastro's INSPIRE downloads (GML 3.2), streamed with saxes in constant memory: one feature at a
// time of the cadastral parcels (CP), buildings and building parts (BU) and addresses (AD) files. The
// ATOM files and the WFS answers name the same things under different namespaces (`cp` 4.0 or the
// `urn:x-inspire` 3.0 one, `bu-ext2d`/`bu-core2d`, `AD`/`ad`), so elements are matched by local name.
// Text is decoded as its bytes say, whatever the prolog declares (files declared ISO-8859-1 are
// often UTF-8). Shapes: see format.md beside this file.
import { SaxesParser } from "saxes";
import type { DecodedText } from "../decode";
import { feedXml, MAX_XML_RECORD_VALUES } from "../read-xml";
import { RegisterFileError } from "../read-error";
import { epsgOf, toWgs84, type LonLat } from "./project";

const localName = (name: string) => name.slice(name.indexOf(":") + 1);

export interface InspireParcel {
  kind: "parcel";
  line: number;
  parcel: string;
  areaM2: number | null;
  /** When this version of the parcel began (the register's `beginLifespanVersion`). */
  since: string | null;
  centroid: LonLat | null;
}

export interface InspireBuilding {
  kind: "building";
  line: number;
  parcel: string;
  condition: string | null;
  /** The register's construction dates (`dateOfConstruction`): its beginning and end years. */
  builtFrom: number | null;
  builtTo: number | null;
  currentUse: string | null;
  units: number | null;
  dwellings: number | null;
  floorsAboveGround: number | null;
  grossFloorAreaM2: number | null;
  since: string | null;
  centroid: LonLat | null;
}

export interface InspireBuildingPart {
  kind: "building_part";
  line: number;
  parcel: string;
  part: string;
  floorsAboveGround: number | null;
  floorsBelowGround: number | null;
}

export interface InspireAddress {
  kind: "address";
  line: number;
  parcel: string;
  /** The house number as the register writes it (`10A`, `S-N` for none). */
  number: string | null;
  /** Where the point stands: `Entrance` of the building or `Parcel`. */
  specification: string | null;
  thoroughfare: string | null;
  postalDescriptor: string | null;
  position: LonLat | null;
}

export interface InspireThoroughfare {
  kind: "thoroughfare";
  line: number;
  id: string;
  name: string;
}

export interface InspirePostalDescriptor {
  kind: "postal_descriptor";
  line: number;
  id: string;
  postCode: string;
}

export type InspireFeature =
  | InspireParcel
  | InspireBuilding
  | InspireBuildingPart
  | InspireAddress
  | InspireThoroughfare
  | InspirePostalDescriptor;

/** A feature element the reader takes, by local name. */
const FEATURES = new Set([
  "CadastralParcel",
  "Building",
  "BuildingPart",
  "Address",
  "ThoroughfareName",
  "PostalDescriptor",
]);

/** Leaf texts of one feature by path of local names (first occurrence), and what geometry it held. */
interface Capture {
  name: string;
  line: number;
  id: string;
  values: Map<string, string>;
  components: string[];
  epsg: string | null;
  geometry: Centroid;
}

/**
 * Area-weighted centroid of the rings read so far (shoelace formula), in the file's coordinates:
 * outer rings add, holes subtract. A feature without a ring (or with rings of no area) falls back to
 * the mean of its points, and a point feature to its point.
 */
class Centroid {
  private area = 0;
  private cx = 0;
  private cy = 0;
  private sumX = 0;
  private sumY = 0;
  private points = 0;

  ring(coords: number[], hole: boolean): void {
    let twice = 0;
    let cx = 0;
    let cy = 0;
    for (let i = 0; i + 3 < coords.length; i += 2) {
      const [x0, y0, x1, y1] = [coords[i]!, coords[i + 1]!, coords[i + 2]!, coords[i + 3]!];
      const cross = x0 * y1 - x1 * y0;
      twice += cross;
      cx += (x0 + x1) * cross;
      cy += (y0 + y1) * cross;
    }
    const area = Math.abs(twice / 2);
    if (area > 0) {
      const sign = hole ? -1 : 1;
      this.area += sign * area;
      this.cx += (sign * area * cx) / (3 * twice);
      this.cy += (sign * area * cy) / (3 * twice);
    }
    this.point(coords);
  }

  point(coords: number[]): void {
    for (let i = 0; i + 1 < coords.length; i += 2) {
      this.sumX += coords[i]!;
      this.sumY += coords[i + 1]!;
      this.points++;
    }
  }

  /** The centroid as the file's first and second coordinate, or null with no point at all. */
  value(): [number, number] | null {
    if (this.area > 0) return [this.cx / this.area, this.cy / this.area];
    return this.points ? [this.sumX / this.points, this.sumY / this.points] : null;
  }
}

function numbers(text: string, file: string, line: number): number[] {
  const values = text.trim().split(/\s+/).map(Number);
  if (values.some((v) => !Number.isFinite(v)))
    throw new RegisterFileError(file, line, null, "a coordinate list holds something that is not a number");
  return values;
}

const int = (text: string | undefined) => (text !== undefined && /^-?\d+$/.test(text) ? Number(text) : null);
const decimal = (text: string | undefined) => (text !== undefined && /^\d+(\.\d+)?$/.test(text) ? Number(text) : null);
const yearOf = (text: string | undefined) => {
  const year = int(text?.slice(0, 4));
  return year !== null && year > 1000 ? year : null;
};
const dateOf = (text: string | undefined) => (text && /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : null);

/** The 14-character parcel reference a Catastro feature identifier ends with (`ES.SDGC.CP.<ref>`, `38.012.10.10.<ref>`). */
function parcelOf(id: string): string | null {
  const match = /([0-9A-ZÑ]{14})(?:_part\d+)?$/.exec(id);
  return match ? match[1]! : null;
}

function toFeature(capture: Capture): InspireFeature | null {
  const { values: v, line } = capture;
  const id = v.get("inspireId/Identifier/localId") ?? capture.id.replace(/^ES\.SDGC\.[A-Z]{2}\./, "");
  const at = capture.geometry.value();
  const centroid = at && capture.epsg ? toWgs84(capture.epsg, at[0], at[1]) : null;
  switch (capture.name) {
    case "ThoroughfareName": {
      const name = [...v].find(([path]) => path.endsWith("SpellingOfName/text"))?.[1];
      return name ? { kind: "thoroughfare", line, id: capture.id, name } : null;
    }
    case "PostalDescriptor": {
      const postCode = v.get("postCode");
      return postCode ? { kind: "postal_descriptor", line, id: capture.id, postCode } : null;
    }
  }
  const parcel = parcelOf(id);
  if (!parcel) return null;
  switch (capture.name) {
    case "CadastralParcel":
      return {
        kind: "parcel",
        line,
        parcel,
        areaM2: decimal(v.get("areaValue")),
        since: dateOf(v.get("beginLifespanVersion")),
        centroid,
      };
    case "Building":
      return {
        kind: "building",
        line,
        parcel,
        condition: v.get("conditionOfConstruction") ?? null,
        builtFrom: yearOf(v.get("dateOfConstruction/DateOfEvent/beginning")),
        builtTo: yearOf(v.get("dateOfConstruction/DateOfEvent/end")),
        currentUse: v.get("currentUse") ?? null,
        units: int(v.get("numberOfBuildingUnits")),
        dwellings: int(v.get("numberOfDwellings")),
        floorsAboveGround: int(v.get("numberOfFloorsAboveGround")),
        grossFloorAreaM2: decimal(v.get("officialArea/OfficialArea/value")),
        since: dateOf(v.get("beginLifespanVersion")),
        centroid,
      };
    case "BuildingPart":
      return {
        kind: "building_part",
        line,
        parcel,
        part: /_(part\d+)$/.exec(id)?.[1] ?? id,
        floorsAboveGround: int(v.get("numberOfFloorsAboveGround")),
        floorsBelowGround: int(v.get("numberOfFloorsBelowGround")),
      };
    default: {
      const component = (prefix: string) =>
        capture.components.find((href) => href.startsWith(`#ES.SDGC.${prefix}.`))?.slice(1) ?? null;
      return {
        kind: "address",
        line,
        parcel,
        number: v.get("locator/AddressLocator/designator/LocatorDesignator/designator") ?? null,
        specification: v.get("position/GeographicPosition/specification") ?? null,
        thoroughfare: component("TN"),
        postalDescriptor: component("PD"),
        position: centroid,
      };
    }
  }
}

/** The features of one INSPIRE GML file, in file order; `file` names it in errors. */
export async function* readInspireGml(file: string, text: DecodedText): AsyncGenerator<InspireFeature> {
  const parser = new SaxesParser({ position: true });
  const done: InspireFeature[] = [];
  const path: string[] = [];
  let capture: Capture | null = null;
  let chars = "";
  parser.on("opentag", (tag) => {
    const name = localName(tag.name);
    chars = "";
    if (!capture) {
      if (FEATURES.has(name)) {
        const id = String(tag.attributes["gml:id"] ?? "");
        capture = {
          name,
          line: parser.line,
          id,
          values: new Map(),
          components: [],
          epsg: null,
          geometry: new Centroid(),
        };
      }
      return;
    }
    path.push(name);
    const srs = tag.attributes.srsName;
    if (srs && !capture.epsg) capture.epsg = epsgOf(String(srs));
    const href = tag.attributes["xlink:href"];
    if (name === "component" && href) capture.components.push(String(href));
  });
  const onText = (chunk: string) => capture && (chars += chunk);
  parser.on("text", onText);
  parser.on("cdata", onText);
  parser.on("closetag", () => {
    if (!capture) return;
    if (!path.length) {
      let feature: InspireFeature | null;
      try {
        feature = toFeature(capture);
      } catch (error) {
        throw new RegisterFileError(file, capture.line, null, error instanceof Error ? error.message : String(error));
      }
      if (feature) done.push(feature);
      capture = null;
      return;
    }
    const name = path[path.length - 1]!;
    const value = chars.trim();
    if (name === "posList" || name === "pos") {
      const coords = numbers(value, file, parser.line);
      if (name === "pos") capture.geometry.point(coords);
      else capture.geometry.ring(coords, path.includes("interior"));
    } else if (value) {
      const key = path.join("/");
      if (!capture.values.has(key)) {
        if (capture.values.size >= MAX_XML_RECORD_VALUES)
          throw new RegisterFileError(file, parser.line, null, `a <${capture.name}> holds too many values`);
        capture.values.set(key, value);
      }
    }
    path.pop();
    chars = "";
  });
  yield* feedXml(parser, file, text, "catastro-inspire", () => done.splice(0));
}
