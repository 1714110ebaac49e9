// Canarias: the register's CSV on datos.canarias.es (`;`, Windows-1252 per NBEM, which also notes
// fields with two references joined by a comma). Its only date is the registration (`fecha_registro`).
import { certificateDataset } from "../datasets/certificates";
import { nbemScript } from "../datasets/evidence";
import type { Dataset } from "../datasets";
import type { Register } from "../register";

const dataset: Dataset = certificateDataset(
  {
    id: "can-gobcan",
    title: "Canarias: register of energy certificates (CKAN CSV)",
    registry: "Gobierno de Canarias RCEE",
    url: "https://datos.canarias.es/catalogos/general/dataset/ca2b3a6c-241b-4fe1-ba6b-f35257ce9604/resource/7094974b-2642-45bf-a5c7-636692d2b3ec/download/rcee202401.csv",
    download: "one CSV (older releases as a ZIP: extract it)",
    evidence: {
      level: "single_source",
      citations: [
        `${nbemScript("Canarias")}: the column names, \`;\` and a Windows code page`,
        "single source (NBEM alone): `;`, the Windows code page and `fecha_registro` day first; the decimal mark " +
          "is documented by no source (the reader takes either)",
      ],
    },
  },
  {
    reference: "referencia_catastral",
    rating: "calificacion_consumo_anual",
    primaryEnergy: "consumo_anual",
    emissionsRating: "calificacion_emision_anual",
    emissions: "emision_anual",
    registeredOn: "fecha_registro",
    certificateId: "numero_registro",
  },
);

export const canarias: Register = {
  id: "canarias",
  publisher: "Gobierno de Canarias",
  community: "Canarias",
  licence: {
    name: "CC-BY-4.0",
    attribution: "Gobierno de Canarias",
    source: "datos.canarias.es states CC BY 4.0 for its datasets (portal-wide, recalled, not re-checked)",
  },
  settings: {},
  live: [],
  datasets: [dataset],
};
