// Galicia: the register's CSV (Xunta, behind a captcha: operators download it by hand). It quotes
// nothing, while addresses hold commas and the building type may end in a parenthesised note with
// more, so fields are named by position from both ends after removing parenthesised text, as NBEM's
// Galicia script reads the file (its names, its order). The file is UTF-8: NBEM decodes it as
// Latin-1 and then repairs "A CORUÃ\x91A" (UTF-8's "Ñ" read as Latin-1) into "A CORUÑA".
import { certificateDataset } from "../datasets/certificates";
import { nbemScript } from "../datasets/evidence";
import type { Dataset } from "../datasets";
import type { Register } from "../register";

const head = ["numSol", "numeroRegistro", "tipoCEE"] as const;
const tail = ["normativa", "refCatastral", "municipio", "cpCat", "provincia", "consumo", "letraConsumo"] as const;
const tailEnd = ["emisions", "letraEmisions", "anoSolicitude", "fechaCaducidade", "descViv"] as const;

const dataset: Dataset = {
  ...certificateDataset(
    {
      id: "gal-xunta",
      title: "Galicia: register of energy certificates (CSV)",
      registry: "Xunta de Galicia rexistro de certificados de eficiencia enerxética",
      url: "https://datos.gob.es/es/catalogo/a12002994-registro-de-certificados-de-eficiencia-energetica-de-edificios-de-galicia",
      download: "one CSV, by hand (the portal asks for a captcha)",
      evidence: {
        level: "single_source",
        citations: [
          `${nbemScript("Galicia")}: the fields by position, parenthesised text removed; ` +
            `its "A CORUÃA" repair shows the file is UTF-8`,
          "single source (NBEM alone): `,` with nothing quoted, UTF-8 and `fechaCaducidade` day first",
        ],
      },
    },
    {
      reference: "refCatastral",
      rating: "letraConsumo",
      primaryEnergy: "consumo",
      emissionsRating: "letraEmisions",
      emissions: "emisions",
      validUntil: "fechaCaducidade",
      certificateId: "numeroRegistro",
    },
  ),
  positional: { head, middle: "enderezo", tail: [...tail, ...tailEnd], drop: /\([^)]*\)/g },
};

export const galicia: Register = {
  id: "galicia",
  publisher: "Xunta de Galicia",
  community: "Galicia",
  licence: {
    name: "CC-BY-4.0",
    attribution: "Xunta de Galicia",
    source: "abertos.xunta.gal states CC BY 4.0 (portal-wide, recalled, not re-checked)",
  },
  settings: {},
  live: [],
  datasets: [dataset],
};
