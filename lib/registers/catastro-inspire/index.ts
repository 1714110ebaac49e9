// Catastro's INSPIRE downloads (ATOM feeds: CP parcels, BU buildings and parts, AD addresses), kept
// per municipality in the cadastre index: parcels' and buildings' facts and points without a request
// to Catastro. The reader and its evidence: ./read-gml.ts, ./format.md; downloads: ./download.ts.
import { catastro } from "../catastro";
import type { Register } from "../register";
import { importInspire, inspireMunicipality } from "./import";

export const catastroInspire: Register = {
  id: "catastro-inspire",
  publisher: catastro.publisher,
  community: "catastro",
  licence: catastro.licence,
  settings: {},
  live: [],
  datasets: [],
  copies: [
    {
      id: "catastro-inspire",
      title: "Catastro: INSPIRE downloads of a municipality (CP, BU, AD GML; ATOM zips)",
      // Parcels rest on three captures, buildings and addresses on one each: the weaker level is the copy's.
      evidence: {
        level: "single_source",
        citations: [
          "CP: three independent captures of Catastro's WFS answers in public repositories (KikeVera/SEW_XML, " +
            "dieghernan/osmposter, Smart-Cities-AI/scrapercatastro)",
          "BU and AD: one source each, javiersanp/CatAtom2Osm test fixtures captured from the ATOM service " +
            "(lib/registers/catastro-inspire/format.md)",
          "ATOM feeds and zips: rOpenSpain/CatastRo (R/utils-atom.R, R/atom-bu.R), CarlosBeltranVelamazan/NBEM " +
            "(INSPIRE_cadastre/Automated_links)",
        ],
      },
      municipalityOf: async (file) => inspireMunicipality(file.name),
      import: importInspire,
    },
  ],
};
