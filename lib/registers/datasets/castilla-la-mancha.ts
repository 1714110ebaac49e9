// Castilla-La Mancha: one file per province (the publisher's download is a ZIP of them: extract it
// and import every file as one dataset). The files are tab-separated Windows-1252 text or, re-saved,
// XLSX; their columns are the national certificate XML flattened, numbered where a name repeats
// ("ns1:Global73" is the primary-energy letter). Column names: NBEM's Castilla_La_Mancha script.
import { certificateDataset } from "./certificates";

export const castillaLaMancha = certificateDataset(
  {
    id: "clm-jccm",
    title: "Castilla-La Mancha: register of energy certificates (per-province files)",
    ccaa: "Castilla-La Mancha",
    registry: "JCCM registro de certificados de eficiencia energética",
    url: "https://datosabiertos.castillalamancha.es/node/733/dataset/download",
    evidence: "column list of NBEM's Castilla_La_Mancha script (which reads XLSX, else tab-separated Windows-1252); not checked against a downloaded file",
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
