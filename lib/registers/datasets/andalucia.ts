// Andalucía: one XML file per province (published as 7z archives, URLs in NBEM's downloader:
// extract them and import the eight files as one dataset), each certificate in the national
// `DatosEnergeticosDelEdificio` schema (version 2). Element paths: NBEM's Andalucía script, which
// reads the same files.
import { certificateDataset } from "./certificates";

export const andalucia = {
  ...certificateDataset(
    {
      id: "and-junta",
      title: "Andalucía: register of energy certificates (XML per province)",
      ccaa: "Andalucía",
      registry: "Junta de Andalucía registro de certificados energéticos",
      url: "https://www.juntadeandalucia.es/datosabiertos/portal/dataset/cb915b9d-f849-421e-99e3-61acec4aaff8",
      evidence: "element paths of NBEM's Andalucía script and the national certificate XML schema (v2); not checked against a downloaded file",
    },
    {
      reference: "IdentificacionEdificio/ReferenciaCatastral",
      rating: "Calificacion/EnergiaPrimariaNoRenovable/Global",
      primaryEnergy: "Consumo/EnergiaPrimariaNoRenovable/Global",
      emissionsRating: "Calificacion/EmisionesCO2/Global",
      emissions: "EmisionesCO2/Global",
      issuedOn: "DatosDelCertificador/Fecha",
    },
  ),
  xmlRecord: "DatosEnergeticosDelEdificio",
};
