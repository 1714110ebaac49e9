// ICAEN's register of energy certificates (Socrata `j6ii-t3w2`), bulk CSV export: `;` when asked
// for it (NBEM's download URL), `,` by default (Socrata's), figures with a decimal comma. The IITE
// column is the dataset's `informe_ins_tecnica_edifici`. Its only date, DATA_ENTRADA, is the
// registration ("Data d'inscripció al registre", ICAEN's field dictionary), not the issue.
import { certificateDataset } from "../datasets/certificates";
import { nbemScript } from "../datasets/evidence";
import { CATALONIA_REGISTRY } from "./client";

export const cataloniaDataset = certificateDataset(
  {
    id: "cat-icaen",
    title: "Catalonia: ICAEN energy certificates (j6ii-t3w2, bulk export)",
    registry: CATALONIA_REGISTRY,
    url: "https://analisi.transparenciacatalunya.cat/api/views/j6ii-t3w2/rows.csv?accessType=DOWNLOAD&bom=true&format=true&delimiter=%3B&sorting=true",
    download: "one CSV export of the whole dataset (about 1.3 million rows), `;` or `,` separated",
    evidence: {
      level: "confirmed",
      citations: [
        `${nbemScript("Cataluña")}: the export's header names; \`;\` from its download URL`,
        "ICAEN's field dictionary (fndvit/mds-udg-viz-i-dgpcd-hackathon-25, src/dades/font/dictionary.json): " +
          "what each column holds",
        "independent public analyses of the same export read the same header names, with decimal-comma figures",
        "single source (NBEM alone): `;` (from NBEM's download URL; Socrata's default `,` is Socrata's own " +
          "documentation) and DATA_ENTRADA day first (NBEM parses it `dayfirst=True`)",
      ],
    },
  },
  {
    reference: "REFERENCIA CADASTRAL",
    rating: "Qualificació de consum d'energia primaria no renovable",
    primaryEnergy: "Energia primària no renovable",
    emissionsRating: "Qualificacio d'emissions de CO2",
    emissions: "Emissions de CO2",
    registeredOn: "DATA_ENTRADA",
    certificateId: "NUM_CAS",
    inspectionCode: "INFORME_INS_TECNICA_EDIFICI",
  },
);
