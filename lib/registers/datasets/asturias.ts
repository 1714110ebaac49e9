// Principado de Asturias: the register of energy certificates, published as an XLSX workbook (on
// datos.gob.es; its FTP link does not answer scripts, so operators download it by hand). A title
// line sits above the header (NBEM skips one row). Column names: NBEM's Asturias script.
import { certificateDataset } from "./certificates";

export const asturias = certificateDataset(
  {
    id: "ast-principado",
    title: "Asturias: register of energy certificates (XLSX)",
    ccaa: "Principado de Asturias",
    registry: "Principado de Asturias registro de certificados de eficiencia energética",
    url: "https://datos.gob.es/es/catalogo/a03002951-eficiencia-energetica-edif-viv",
    evidence: "column list of NBEM's Asturias script; not checked against a downloaded file",
  },
  {
    reference: "REFERENCIA CATASTRAL",
    rating: "CALIF CONSUMO ENERGIA PRIMARIA",
    primaryEnergy: "CONSUMO ENERGIA PRIMARIA (kWh/m2año)",
    emissionsRating: "CALIFICACION EMISIONES",
    emissions: "EMISIONES CO2 RATIO (kgCO2/m2año)",
    issuedOn: "FECHA REGISTRO",
    certificateId: "Nº DE REGISTRO",
  },
);
