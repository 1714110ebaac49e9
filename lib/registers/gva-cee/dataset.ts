// Comunitat Valenciana: the yearly "ETIQUETA" CSVs per province from gceedadesobertes.aven.es (one
// dataset, several files, `;` separated as NBEM reads them). The files give the end of validity,
// not the issue date. Their certificates carry this dataset's own registry label, not the live
// WFS's: a record says which copy it came from.
import { certificateDataset } from "../datasets/certificates";
import { NBEM_MAIN, nbemScript } from "../datasets/evidence";

export const valenciaDataset = certificateDataset(
  {
    id: "val-gva",
    title: "Comunitat Valenciana: GVA yearly certificate files (per year and province)",
    registry: "GVA registro de certificados (ficheros ETIQUETA)",
    url: "https://gceedadesobertes.aven.es/dadesobertes/Home/GetFile?anyo=2022&provincia=VALENCIA&tipo=ETIQUETA&formato=csv",
    download: "one CSV per year (2013 on) and province (ALICANTE, CASTELLÓN, VALENCIA): import them all as one dataset",
    evidence: {
      level: "confirmed",
      citations: [
        `${nbemScript("C_Valenciana")}: the column names`,
        `${NBEM_MAIN}: the files per year and province, read with \`;\``,
        "independent public analyses of the same files read CONSUMO_EP_LETRA and EMISIONES_CO2_LETRA",
      ],
    },
  },
  {
    reference: "REFERENCIA_CATASTRAL",
    rating: "CONSUMO_EP_LETRA",
    primaryEnergy: "CONSUMO_EP_VALOR",
    emissionsRating: "EMISIONES_CO2_LETRA",
    emissions: "EMISIONES_CO2_VALOR",
    validUntil: "VALIDO_HASTA",
    certificateId: "REGISTRO",
  },
);
