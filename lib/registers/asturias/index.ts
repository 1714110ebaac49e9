// Principado de Asturias: the register of energy certificates, an XLSX workbook with a title line
// above the header (NBEM skips one row). Its only date is the registration (`FECHA REGISTRO`).
import { certificateDataset } from "../datasets/certificates";
import { nbemScript } from "../datasets/evidence";
import type { Dataset } from "../datasets";
import type { Register } from "../register";

const dataset: Dataset = certificateDataset(
  {
    id: "ast-principado",
    title: "Asturias: register of energy certificates (XLSX)",
    registry: "Principado de Asturias registro de certificados de eficiencia energética",
    url: "https://datos.gob.es/es/catalogo/a03002951-eficiencia-energetica-edif-viv",
    download: "one XLSX workbook, by hand (its FTP link does not answer scripts)",
    evidence: {
      level: "single_source",
      citations: [
        `${nbemScript("Asturias")}: the column names, one line above the header`,
        "single source (NBEM alone): `FECHA REGISTRO` a date cell and the line above the header",
      ],
    },
  },
  {
    reference: "REFERENCIA CATASTRAL",
    rating: "CALIF CONSUMO ENERGIA PRIMARIA",
    primaryEnergy: "CONSUMO ENERGIA PRIMARIA (kWh/m2año)",
    emissionsRating: "CALIFICACION EMISIONES",
    emissions: "EMISIONES CO2 RATIO (kgCO2/m2año)",
    registeredOn: "FECHA REGISTRO",
    certificateId: "Nº DE REGISTRO",
  },
);

export const asturias: Register = {
  id: "asturias",
  publisher: "Principado de Asturias",
  community: "Principado de Asturias",
  licence: {
    name: "CC-BY-4.0",
    attribution: "Principado de Asturias",
    source:
      "the Principado's open-data catalogue (datos.gob.es federation) states CC BY 4.0 " +
      "(portal-wide, recalled, not re-checked)",
  },
  settings: {},
  live: [],
  datasets: [dataset],
};
