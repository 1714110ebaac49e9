// Castilla-La Mancha: ten files, two per province split by the alphabet (NBEM's main script reads
// "CertificadosEEE_Toledo A-O" and "P-Z", Guadalajara A-G/H-Z, Cuenca A-E/F-Z, Ciudad Real A-D/E-Z,
// Albacete A/B-Z), published as `.xls` files that must be opened and saved again as `.xlsx` (NBEM:
// "unos xls con problemas hay que abrirlos y guardarlos como xlsx"), or read as tab-separated text.
// Their columns are the national certificate XML flattened, numbered where a name repeats
// ("ns1:Global73" is the primary-energy letter). Its date, `ns1:Fecha`, is the certificate's own
// (the certifier's, as in the national XML): the issue date.
import { certificateDataset } from "../datasets/certificates";
import { NBEM_MAIN, nbemScript } from "../datasets/evidence";
import type { Dataset } from "../datasets";
import type { Register } from "../register";

const dataset: Dataset = certificateDataset(
  {
    id: "clm-jccm",
    title: "Castilla-La Mancha: register of energy certificates (ten per-province files)",
    registry: "JCCM registro de certificados de eficiencia energética",
    url: "https://datosabiertos.castillalamancha.es/node/733/dataset/download",
    download:
      "ten `.xls` files, two per province (Toledo A-O and P-Z, Guadalajara A-G and H-Z, Cuenca A-E and F-Z, " +
      "Ciudad Real A-D and E-Z, Albacete A and B-Z): open each and save it as `.xlsx`, " +
      "then import all ten as one dataset",
    evidence: {
      level: "single_source",
      citations: [
        `${nbemScript("Castilla_La_Mancha")}: the column names; XLSX, else tab-separated Windows text`,
        `${NBEM_MAIN}: the ten file names`,
        "single source (NBEM alone): the tab-separated Windows-1252 fallback and `ns1:Fecha` day first",
      ],
    },
  },
  {
    reference: "ns1:ReferenciaCatastral",
    rating: "ns1:Global73",
    primaryEnergy: "ns1:Global48",
    emissionsRating: "ns1:Global84",
    emissions: "ns1:Global53",
    issuedOn: "ns1:Fecha",
    certificateId: "ns1:CodigoComunidadAutonoma",
  },
);

export const castillaLaMancha: Register = {
  id: "castilla-la-mancha",
  publisher: "Junta de Comunidades de Castilla-La Mancha",
  community: "Castilla-La Mancha",
  licence: {
    name: "CC-BY-4.0",
    attribution: "Junta de Comunidades de Castilla-La Mancha",
    source: "the JCCM open-data portal states CC BY 4.0 (portal-wide, recalled, not re-checked)",
  },
  settings: {},
  live: [],
  datasets: [dataset],
};
