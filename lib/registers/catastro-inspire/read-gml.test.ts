import { createReadStream } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { decodeText } from "../decode";
import { RegisterFileError } from "../read-error";
import { epsgOf, toWgs84 } from "./project";
import { type InspireFeature, readInspireGml } from "./read-gml";

const FIXTURES = path.join(import.meta.dirname, "fixtures");

async function read(name: string, bytes?: AsyncIterable<Buffer>): Promise<InspireFeature[]> {
  const features: InspireFeature[] = [];
  const text = decodeText(bytes ?? createReadStream(path.join(FIXTURES, name), { highWaterMark: 512 }));
  for await (const feature of readInspireGml(name, text)) features.push(feature);
  return features;
}

describe("the INSPIRE GML reader", () => {
  it("reads parcels of a WFS answer with their area and WGS 84 centroid", async () => {
    const [first, second] = await read("28900.cadastralparcel.gml");
    // The square's centre (440123.45, 4474123.45 in EPSG 25830), projected.
    expect(first).toEqual({
      kind: "parcel",
      line: 5,
      parcel: "0847106VK4704F",
      areaM2: 512,
      since: "2014-09-15",
      centroid: toWgs84("25830", 440123.45, 4474123.45),
    });
    expect(first?.kind === "parcel" && first.centroid).toMatchObject({ lon: expect.closeTo(-3.7059, 3) });
    expect(second).toMatchObject({ parcel: "0847107VK4704F", areaM2: 430 });
  });

  it("reads buildings (a hole subtracted from the centroid, no year when the file gives none) and their parts", async () => {
    const [withYear, without] = await read("28900.building.gml");
    expect(withYear).toMatchObject({
      kind: "building",
      parcel: "0847106VK4704F",
      builtFrom: 1968,
      builtTo: 1968,
      currentUse: "1_residential",
      units: 3,
      dwellings: 2,
      floorsAboveGround: null,
      grossFloorAreaM2: 1840,
      centroid: toWgs84("25830", 440123.45, 4474123.45),
    });
    expect(without).toMatchObject({ parcel: "0847107VK4704F", builtFrom: null, builtTo: null, dwellings: 0 });
    expect(await read("28900.buildingpart.gml")).toEqual([
      {
        kind: "building_part",
        line: 5,
        parcel: "0847106VK4704F",
        part: "part1",
        floorsAboveGround: 5,
        floorsBelowGround: 1,
      },
      {
        kind: "building_part",
        line: 17,
        parcel: "0847106VK4704F",
        part: "part2",
        floorsAboveGround: 2,
        floorsBelowGround: 0,
      },
    ]);
  });

  it("reads addresses of a file declared ISO-8859-1 in UTF-8, with their street and postal code links", async () => {
    const features = await read("28900.address.gml");
    expect(features.find((f) => f.kind === "address")).toMatchObject({
      parcel: "0847106VK4704F",
      number: "12",
      specification: "Entrance",
      thoroughfare: "ES.SDGC.TN.28.900.1234",
      postalDescriptor: "ES.SDGC.PD.28.900.28009",
    });
    expect(features.find((f) => f.kind === "thoroughfare")).toMatchObject({ name: "CL ALCALÁ" });
    expect(features.find((f) => f.kind === "postal_descriptor")).toMatchObject({ postCode: "28009" });
  });

  it("reads an empty collection as no features", async () => {
    expect(await read("empty.cadastralparcel.gml")).toEqual([]);
  });

  it("refuses a file that is not XML, a broken one and coordinates that are not numbers, naming the file", async () => {
    const bytes = (text: string) => Readable.from([Buffer.from(text)]);
    await expect(read("x.gml", bytes("PK\u0003\u0004 not xml"))).rejects.toThrow(RegisterFileError);
    await expect(read("x.gml", bytes("<a><b></a>"))).rejects.toThrow(/x\.gml/);
    const bad =
      '<c><member><cp:CadastralParcel gml:id="ES.SDGC.CP.0847106VK4704F"><g srsName="EPSG:25830">' +
      "<gml:posList>1 2 x 4</gml:posList></g></cp:CadastralParcel></member></c>";
    await expect(read("x.gml", bytes(bad))).rejects.toThrow(/not a number/);
  });

  it("reads reference systems from every form of srsName, latitude first for geographic ones", () => {
    expect(epsgOf("urn:ogc:def:crs:EPSG::32628")).toBe("32628");
    expect(epsgOf("http://www.opengis.net/def/crs/EPSG/0/25830")).toBe("25830");
    expect(epsgOf("EPSG:4326")).toBe("4326");
    expect(toWgs84("4326", 40.4, -3.7)).toEqual({ lon: -3.7, lat: 40.4 });
    expect(() => toWgs84("2062", 1, 2)).toThrow(/EPSG:2062/);
  });
});
