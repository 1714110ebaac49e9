// Comunitat Valenciana: the yearly "ETIQUETA" CSVs per province from gceedadesobertes.aven.es (one
// dataset, several files). Column names: NBEM's C_Valenciana script. The files give the end of
// validity, not the issue date.
import { VALENCIA_REGISTRY } from "@/lib/enrichment/sources/registries/valencia";
import { certificateDataset } from "./certificates";

export const valencia = certificateDataset(
  {
    id: "val-gva",
    title: "Comunitat Valenciana: GVA yearly certificate files (per year and province)",
    ccaa: "Comunitat Valenciana",
    registry: VALENCIA_REGISTRY,
    url: "https://gceedadesobertes.aven.es/dadesobertes/Home/GetFile?anyo=2022&provincia=VALENCIA&tipo=ETIQUETA&formato=csv",
    evidence: "column list of NBEM's C_Valenciana script; not checked against a downloaded file",
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
