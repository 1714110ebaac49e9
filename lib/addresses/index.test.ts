import { describe, expect, it } from "vitest";
import { addressKey, splitStreetAddress, streetName, streetNumber, streetType } from ".";

describe("addressKey", () => {
  it("files Catastro's address and a city's spelling of it under one key", () => {
    const catastro = addressKey({ municipalityCode: "28079", type: "CL", name: "ALCALA", number: "123" });
    const city = addressKey({ municipalityCode: "28079", type: "Calle", name: "de Alcalá", number: "123" });
    expect(catastro).toBe("28079|CALLE|ALCALA|123");
    expect(city).toBe(catastro);
  });

  it("keeps the street type: Ronda de Toledo is not Calle de Toledo", () => {
    expect(addressKey({ municipalityCode: "28079", type: "RD", name: "TOLEDO", number: "1" })).not.toBe(
      addressKey({ municipalityCode: "28079", type: "CL", name: "TOLEDO", number: "1" }),
    );
  });

  it("has no key without a number, a name or a municipality code", () => {
    expect(addressKey({ municipalityCode: "28079", type: "CL", name: "ALCALA", number: "S/N" })).toBeNull();
    expect(addressKey({ municipalityCode: "28079", type: "CL", name: " de ", number: "3" })).toBeNull();
    expect(addressKey({ municipalityCode: "", type: "CL", name: "ALCALA", number: "3" })).toBeNull();
  });
});

describe("the parts", () => {
  it("reads street types as codes, words and abbreviations", () => {
    expect(["CL", "Calle", "C/", "calle"].map(streetType)).toEqual(["CALLE", "CALLE", "CALLE", "CALLE"]);
    expect(["AV", "Avda.", "Avenida"].map(streetType)).toEqual(["AVENIDA", "AVENIDA", "AVENIDA"]);
    expect(["PZ", "Plaza", "Pl."].map(streetType)).toEqual(["PLAZA", "PLAZA", "PLAZA"]);
    expect(streetType("Costanilla")).toBe("COSTANILLA");
  });

  it("drops accents, punctuation and the particles Catastro leaves out", () => {
    expect(streetName("de la Princesa")).toBe("PRINCESA");
    expect(streetName("Doctor Esquerdo")).toBe("DOCTOR ESQUERDO");
    expect(streetName("GUAYANA-MOJONERA")).toBe("GUAYANA MOJONERA");
    expect(streetName("Núñez de Balboa")).toBe("NUNEZ BALBOA");
  });

  it("reads the number's leading digits", () => {
    expect(["12", "12 BIS", "012", " 7-9", "S/N", "0", ""].map(streetNumber)).toEqual([
      "12",
      "12",
      "12",
      "7",
      null,
      null,
      null,
    ]);
  });
});

describe("an address written in one field", () => {
  it("splits into type, name and number, and keys as the parts would", () => {
    const restituto = { type: "CALLE", name: "DE SAN RESTITUTO", number: "72" };
    expect(splitStreetAddress("CALLE DE SAN RESTITUTO 72")).toEqual(restituto);
    expect(splitStreetAddress("Cl San Restituto, 72 Bis")).toEqual({ type: "CL", name: "SAN RESTITUTO", number: "72" });
    const key = (text: string) => addressKey({ municipalityCode: "28079", ...splitStreetAddress(text)! });
    const catastro = addressKey({ municipalityCode: "28079", type: "CL", name: "SAN RESTITUTO", number: "72" });
    expect(key("Calle de San Restituto, 72")).toBe(catastro);
    expect(key("Avda. de la Albufera 12")).toBe("28079|AVENIDA|ALBUFERA|12");
  });

  it("has no type when the first word names none, and is nothing without a number", () => {
    const untyped = { type: "", name: "COSTANILLA DE LOS DESAMPARADOS", number: "4" };
    expect(splitStreetAddress("Costanilla de los Desamparados 4")).toEqual(untyped);
    expect(splitStreetAddress("Calle de Alcalá S/N")).toBeNull();
    expect(splitStreetAddress("")).toBeNull();
  });
});
