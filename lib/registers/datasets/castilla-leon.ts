// Castilla y León: the register's whole-community CSV (`;`). Column names: NBEM's Castilla_Y_León script.
import { certificateDataset } from "./certificates";

export const castillaLeon = certificateDataset(
  {
    id: "cyl-jcyl",
    title: "Castilla y León: register of energy certificates (bulk CSV)",
    ccaa: "Castilla y León",
    registry: "JCyL certificados de eficiencia energética",
    url: "https://datosabiertos.jcyl.es/web/jcyl/risp/es/energia/certificados-eficiencia/1285094021912.csv",
    evidence: "column list of NBEM's Castilla_Y_León script; not checked against a downloaded file",
  },
  {
    reference: "Ref. Catastral",
    rating: "Calificación E.Primaria",
    primaryEnergy: "Ratio Energía Primaria",
    emissionsRating: "Calificación emisiones CO2",
    emissions: "Ratio emisiones CO2",
    issuedOn: "Fecha de inscripción",
    certificateId: "Nº de inscripción",
  },
);
