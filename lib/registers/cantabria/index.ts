// Cantabria: the register's XLSX export (DGICC, last published April 2022). Letters are written
// "E - Calificación E", "N/D" for none. Its date, VIGENCIA DESDE, is when validity starts: read as
// the issue date, from which validity runs.
import { certificateDataset } from "../datasets/certificates";
import { nbemScript } from "../datasets/evidence";
import type { Dataset } from "../datasets";
import type { Register } from "../register";

const dataset: Dataset = certificateDataset(
  {
    id: "ctb-dgicc",
    title: "Cantabria: register of energy certificates (XLSX, 2022)",
    registry: "Gobierno de Cantabria RCEEC",
    url: "https://dgicc.cantabria.es//documents/16626/22038372/DATOS_RCEEC-05042022.xlsx/53189aaa-87ac-60a6-c061-7edbef59716a?t=1650285779330",
    download: "one XLSX workbook (a 2022 snapshot)",
    // The date in the file's name (DATOS_RCEEC-05042022): the register as the DGICC published it.
    snapshotOn: "2022-04-05",
    evidence: {
      level: "single_source",
      citations: [
        `${nbemScript("Cantabria")}: the column names and the letters' wording`,
        "single source (NBEM alone): the header on the first row and `VIGENCIA DESDE` a date cell",
      ],
    },
  },
  {
    reference: "REFERENCIA CATASTRAL",
    rating: "CALIF. CONSUMO",
    primaryEnergy: "kWh/m2*año",
    emissionsRating: "CALIF.EMI.GLOBALES",
    emissions: "kgCO2/m2*año",
    issuedOn: "VIGENCIA DESDE",
    certificateId: "CERTIFICADO",
  },
);

export const cantabria: Register = {
  id: "cantabria",
  publisher: "Gobierno de Cantabria (DGICC)",
  community: "Cantabria",
  licence: {
    name: "unstated",
    attribution: "Gobierno de Cantabria",
    source:
      "none found: the workbook is published on DGICC's pages, not an open-data portal; " +
      "the publisher is named as a courtesy",
  },
  settings: {},
  live: [],
  datasets: [dataset],
};
