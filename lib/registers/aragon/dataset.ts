// Aragón: GA_OD_Core view 237 (opendata.aragon.es), downloaded as CSV or XLSX: the same 16 columns
// the live client reads (ARAGON_COLUMNS), figures as "142,33 kWh/m2 año", "-" for no letter,
// dates "2019-05-10 0:00", the end of validity in `fec_expira`.
import { certificateDataset } from "../datasets/certificates";
import { nbemScript } from "../datasets/evidence";
import { ARAGON_COLUMNS, ARAGON_REGISTRY } from "./client";

export const aragonDataset = certificateDataset(
  {
    id: "ara-gaodcore",
    title: "Aragón: register of energy certificates (GA_OD_Core view 237)",
    registry: ARAGON_REGISTRY,
    url: "https://opendata.aragon.es/GA_OD_Core/download?view_id=237&formato=csv",
    download: "the whole view as one CSV (or `formato=xlsx`)",
    evidence: {
      level: "confirmed",
      citations: [
        "aragonopendata/ga-od-core-v2 (the portal's own API code): views are downloaded whole as CSV, XLSX or JSON",
        `${nbemScript("Aragón")}: the column names; figures split from their unit`,
        "independent public analyses of the downloaded view: 16 columns, every `consumo_ener` ending in " +
          "` kWh/m2 año` after a decimal comma, `-` for no letter, `fec_emision` and `fec_expira` as dates",
      ],
    },
  },
  ARAGON_COLUMNS,
);
