// Which download URLs are taken: Catastro's publishing hosts only.
import { describe, expect, it } from "vitest";
import { CATASTRO_DOWNLOAD_HOSTS, publisherUrl } from "./download";

describe("publisherUrl", () => {
  it("takes Catastro's INSPIRE and electronic office hosts", () => {
    const zip = "https://www.catastro.hacienda.gob.es/INSPIRE/Buildings/28/28900-MADRID/A.ES.SDGC.BU.28900.zip";
    expect(publisherUrl(zip).href).toBe(zip);
    expect(publisherUrl("https://WWW1.SEDECATASTRO.GOB.ES/x/28_900_U.CAT").host).toBe("www1.sedecatastro.gob.es");
  });

  it.each([
    "https://example.org/A.ES.SDGC.BU.28900.zip",
    "https://catastro.hacienda.gob.es.example.org/INSPIRE/x.zip",
    "http://127.0.0.1:8080/A.ES.SDGC.BU.28900.zip",
    "https://169.254.169.254/latest/meta-data",
  ])("refuses %s, naming the hosts it takes", (url) => {
    expect(() => publisherUrl(url)).toThrow(/is not one of Catastro's publishing hosts/);
    expect(() => publisherUrl(url)).toThrow(CATASTRO_DOWNLOAD_HOSTS[0]);
  });

  it("refuses what is not a URL", () => {
    expect(() => publisherUrl("A.ES.SDGC.BU.28900.zip")).toThrow(/not a URL/);
  });
});
