// Aragón: GA_OD_Core view 237 (opendata.aragon.es), downloaded as CSV. Column names: NBEM's Aragón
// script, which also shows the figures carry their unit ("123.4 kWh/m2 año").
import { ARAGON_REGISTRY } from "@/lib/enrichment/sources/registries/aragon";
import { certificateDataset } from "./certificates";

export const aragon = certificateDataset(
  {
    id: "ara-gaodcore",
    title: "Aragón: register of energy certificates (GA_OD_Core view 237)",
    ccaa: "Aragón",
    registry: ARAGON_REGISTRY,
    url: "https://opendata.aragon.es/GA_OD_Core/download?view_id=237&formato=csv",
    evidence: "column list of NBEM's Aragón script; not checked against a downloaded file",
  },
  {
    reference: "refcatastral",
    rating: "clasificacion_consumo",
    primaryEnergy: "consumo_ener",
    emissionsRating: "clasificacion_emisiones",
    emissions: "emision_co",
    issuedOn: "fec_emision",
    certificateId: "numcert",
  },
);
