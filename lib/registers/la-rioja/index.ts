// La Rioja: the register's CSV on ias1.larioja.org. `FECHA_VALIDEZ` is the end of validity; no
// certificate number.
import { certificateDataset } from "../datasets/certificates";
import { nbemScript } from "../datasets/evidence";
import type { Dataset } from "../datasets";
import type { Register } from "../register";

const dataset: Dataset = certificateDataset(
  {
    id: "rio-larioja",
    title: "La Rioja: register of energy certificates (CSV)",
    registry: "Gobierno de La Rioja",
    url: "https://ias1.larioja.org/opendata/download?r=Y2Q9ODgyfGNmPTAz",
    download: "one CSV",
    evidence: {
      level: "single_source",
      citations: [
        `${nbemScript("Rioja")}: the column names, a single-byte encoding`,
        "single source (NBEM alone): `,`, a single-byte encoding and `FECHA_VALIDEZ` year first; decimal comma " +
          "figures are the fixture's, documented by no source",
      ],
    },
  },
  {
    reference: "REF_CATASTRAL",
    rating: "CALIF_CONSUMO_NORENOV",
    primaryEnergy: "KWH_M2ANIO",
    emissionsRating: "CALIF_EMISIONES_CO2",
    emissions: "KGCO2_M2ANIO",
    validUntil: "FECHA_VALIDEZ",
  },
);

export const laRioja: Register = {
  id: "la-rioja",
  publisher: "Gobierno de La Rioja",
  community: "La Rioja",
  licence: {
    name: "CC-BY-4.0",
    attribution: "Gobierno de La Rioja",
    source: "La Rioja's open-data portal states CC BY 4.0 (portal-wide, recalled, not re-checked)",
  },
  settings: {},
  live: [],
  datasets: [dataset],
};
