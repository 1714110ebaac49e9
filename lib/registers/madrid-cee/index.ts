// Comunidad de Madrid: the register of energy certificates, published as open data on the
// Comunidad's CKAN portal (package `registro_certificados_eficiencia_energetica`, one CSV a year):
// 86 columns, `edif_refcat` the cadastral reference, `cal_norenovglobal` the non-renewable primary
// energy letter and `cal_co2global` the CO2 one, `norenov_global` and `norenov_co2global` their
// figures (decimal comma, `99999999,99` for no value). Its one date, `edif_fecha`, is not read: one
// peer calls it the issue date, nothing confirms what it is or how it is written, and a wrong issue
// date would give a wrong validity; so a reference's newer certificate is its later line in the file.
import { certificateDataset } from "../datasets/certificates";
import type { Dataset, Row } from "../datasets";
import type { Register } from "../register";

/** The figures' "no value" (99999999,99 and the like, as the peer's audit lists them). */
const NO_VALUE = /^9{8}([.,]\d+)?$/;
const FIGURES = ["primaryEnergy", "emissions"] as const;

const PEER = "MBengochea/Low-Carbon-Heating-Roadmap-for-Madrid";

const certificates = certificateDataset(
  {
    id: "mad-cee",
    title: "Comunidad de Madrid: register of energy certificates (CSV per year)",
    registry: "Comunidad de Madrid registro de certificados energéticos",
    url: "https://datos.comunidad.madrid/catalogo/dataset/registro_certificados_eficiencia_energetica",
    download:
      "one CSV per year (registro_certificados_eficiencia_energetica_<year>.csv): import them all as one dataset",
    evidence: {
      level: "single_source",
      citations: [
        `${PEER}, notebooks/03_collection_wrangling_ceee.ipynb: the 86 column names in published order ` +
          "(printed by pandas from the real download, 115,596 rows), lower-cased by its loader (src/loader.py)",
        `${PEER}, the same notebook's printed rows: 14- and 20-character references in edif_refcat, ` +
          "A-G letters in cal_norenovglobal and cal_co2global",
        "single source (that peer alone): `;` and Latin-1 (its read_csv), decimal comma figures and the " +
          "99999999,99 no-value sentinel (its cleaning and audit file); the headers' own case is unconfirmed",
      ],
    },
    caseInsensitive: true,
  },
  {
    reference: "edif_refcat",
    rating: "cal_norenovglobal",
    primaryEnergy: "norenov_global",
    emissionsRating: "cal_co2global",
    emissions: "norenov_co2global",
    certificateId: "edif_codreg",
  },
);

const dataset: Dataset = {
  ...certificates,
  read(row: Row, unreadable) {
    const cleaned = { ...row };
    for (const field of FIGURES) if (NO_VALUE.test(cleaned[field]?.trim() ?? "")) cleaned[field] = undefined;
    return certificates.read(cleaned, unreadable);
  },
};

export const madridCee: Register = {
  id: "madrid-cee",
  publisher: "Comunidad de Madrid",
  community: "Comunidad de Madrid",
  licence: {
    name: "CC-BY-4.0",
    attribution: "Comunidad de Madrid",
    source: "the Comunidad's open-data portal states CC BY 4.0 for its datasets (portal-wide, not this file's)",
  },
  settings: {},
  live: [],
  datasets: [dataset],
};
