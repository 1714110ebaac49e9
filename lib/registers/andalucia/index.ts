// Andalucía: one XML file per province, each certificate in the national `DatosEnergeticosDelEdificio`
// schema (version 2). Its date is the certificate's own (the certifier's `Fecha`): the issue date.
import { certificateDataset } from "../datasets/certificates";
import { nbemScript } from "../datasets/evidence";
import type { Dataset } from "../datasets";
import type { Register } from "../register";

const dataset: Dataset = {
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
          "single source (NBEM alone): `DatosDelCertificador/Fecha` day first; the encoding is read from each " +
            "file's XML declaration",
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

export const andalucia: Register = {
  id: "andalucia",
  publisher: "Junta de Andalucía",
  community: "Andalucía",
  licence: {
    name: "CC-BY-4.0",
    attribution: "Junta de Andalucía",
    source: "the Junta's open-data portal states CC BY 4.0 for its datasets (portal-wide, recalled, not re-checked)",
  },
  settings: {},
  live: [],
  datasets: [dataset],
};
