// Castilla y León: the register's bulk CSV (`;`) for the whole community. Column names: NBEM's
// Castilla_Y_León script, the only evidence. Its only date is the registration ("Fecha de
// inscripción"): no issue date, no end of validity.
import { certificateDataset } from "../datasets/certificates";
import { nbemScript } from "../datasets/evidence";
import type { Dataset } from "../datasets";
import type { Register } from "../register";

const dataset: Dataset = certificateDataset(
  {
    id: "cyl-jcyl",
    title: "Castilla y León: register of energy certificates (bulk CSV)",
    registry: "JCyL certificados de eficiencia energética",
    url: "https://datosabiertos.jcyl.es/web/jcyl/risp/es/energia/certificados-eficiencia/1285094021912.csv",
    download: "one CSV for the whole community (per-province files hold fewer columns)",
    evidence: {
      level: "single_source",
      citations: [
        `${nbemScript("Castilla_Y_León")}: the column names, \`;\``,
        "single source (NBEM alone): `;` and `Fecha de inscripción` year first; the decimal mark is documented " +
          "by no source (the reader takes either)",
      ],
    },
  },
  {
    reference: "Ref. Catastral",
    rating: "Calificación E.Primaria",
    primaryEnergy: "Ratio Energía Primaria",
    emissionsRating: "Calificación emisiones CO2",
    emissions: "Ratio emisiones CO2",
    registeredOn: "Fecha de inscripción",
    certificateId: "Nº de inscripción",
  },
);

export const castillaLeon: Register = {
  id: "castilla-leon",
  publisher: "Junta de Castilla y León",
  community: "Castilla y León",
  licence: {
    name: "CC-BY-4.0",
    attribution: "Junta de Castilla y León",
    source: "the JCyL open-data portal states CC BY 4.0 for its datasets (portal-wide, recalled, not re-checked)",
  },
  settings: {},
  live: [],
  datasets: [dataset],
};
