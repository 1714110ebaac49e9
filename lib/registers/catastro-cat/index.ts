// Catastro's alphanumeric bulk data (CAT files of non-protected data), kept per municipality in the
// cadastre index: the national cadastre's units (record 15) without a request to Catastro. The reader
// and its evidence: ./read-cat.ts, ./format.md.
import { catastro } from "../catastro";
import type { Register } from "../register";
import { catMunicipality, importCat } from "./import";

export const catastroCat: Register = {
  id: "catastro-cat",
  publisher: catastro.publisher,
  community: "catastro",
  licence: catastro.licence,
  settings: {},
  live: [],
  datasets: [],
  copies: [
    {
      id: "catastro-cat",
      title: "Catastro: CAT file of a municipality's non-protected data (records 11, 13, 14, 15)",
      evidence: {
        level: "confirmed",
        citations: [
          "field positions from the DGC's CAT exchange format as three independent parsers encode it: " +
            "oscarfonts/catastro2postgis catstruct.py, lfern/catparser, NBEM's CAT script (lib/registers/catastro-cat/format.md)",
          "record 14's positions 51-58, the participation's unit and record 11's coordinates rest on one source " +
            "(catstruct.py); no real CAT line was found in public code",
        ],
      },
      municipalityOf: catMunicipality,
      import: importCat,
    },
  ],
};
