// Galicia: the register's CSV (Xunta, behind a captcha: operators download it by hand). It quotes
// nothing, while addresses hold commas and the building type may end in a parenthesised note with
// more, so fields are named by position from both ends after removing parenthesised text, as NBEM's
// Galicia script reads the file (its names, its order; Windows-1252/Latin-1 as NBEM decodes it).
import { certificateDataset } from "./certificates";

export const galicia = {
  ...certificateDataset(
    {
      id: "gal-xunta",
      title: "Galicia: register of energy certificates (CSV)",
      ccaa: "Galicia",
      registry: "Xunta de Galicia rexistro de certificados de eficiencia enerxética",
      url: "https://datos.gob.es/es/catalogo/a12002994-registro-de-certificados-de-eficiencia-energetica-de-edificios-de-galicia",
      evidence: "field order of NBEM's Galicia script, which reads the file by position; not checked against a downloaded file",
      encoding: "latin1",
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
  positional: {
    head: ["numSol", "numeroRegistro", "tipoCEE"],
    middle: "enderezo",
    tail: ["normativa", "refCatastral", "municipio", "cpCat", "provincia", "consumo", "letraConsumo", "emisions", "letraEmisions", "anoSolicitude", "fechaCaducidade", "descViv"],
    drop: /\([^)]*\)/g,
  },
};
