// Andalucía: one XML file per province, each certificate in the national `DatosEnergeticosDelEdificio`
// schema (version 2). Its date is the certificate's own (the certifier's `Fecha`): the issue date.
import { certificateDataset } from "./certificates";
import { nbemScript } from "./evidence";

export const andalucia = {
  ...certificateDataset(
    {
      id: "and-junta",
      title: "Andalucía: register of energy certificates (XML per province)",
      registry: "Junta de Andalucía registro de certificados energéticos",
      url: "https://www.juntadeandalucia.es/datosabiertos/portal/dataset/cb915b9d-f849-421e-99e3-61acec4aaff8",
      download: "eight `.7z` archives, one per province: extract them and import the eight XML files as one dataset",
      evidence: {
        level: "single_source",
        citations: [
          `${nbemScript("Andalucia")}: the files hold the national certificate XML, and these element paths`,
          "the national schema's paths themselves are read alike by independent certificate-XML readers; " +
            "that Andalucía's downloads follow it rests on NBEM alone",
        ],
      },
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
