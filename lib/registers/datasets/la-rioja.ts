// La Rioja: the register's CSV on ias1.larioja.org. Column names: NBEM's Rioja script (read there
// with a single-byte encoding). `FECHA_VALIDEZ` is the end of validity; no certificate number.
import { certificateDataset } from "./certificates";

export const laRioja = certificateDataset(
  {
    id: "rio-larioja",
    title: "La Rioja: register of energy certificates (CSV)",
    ccaa: "La Rioja",
    registry: "Gobierno de La Rioja",
    url: "https://ias1.larioja.org/opendata/download?r=Y2Q9ODgyfGNmPTAz",
    evidence: "column list of NBEM's Rioja script; not checked against a downloaded file",
    encoding: "latin1",
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
