// ICAEN's register of energy certificates (Socrata `j6ii-t3w2`), bulk CSV export with `;` as the
// delimiter. Column names: the export's header as NBEM's Catalonia script reads it
// (CarlosBeltranVelamazan/NBEM, Crear_tabla_estándar_Cataluña.py, download URL in
// A_0_Descarga_archivos.py). The IITE column is the dataset's `informe_ins_tecnica_edifici`.
import { CATALONIA_REGISTRY } from "@/lib/enrichment/sources/registries/catalonia";
import { certificateDataset } from "./certificates";

export const catalonia = certificateDataset(
  {
    id: "cat-icaen",
    title: "Catalonia: ICAEN energy certificates (j6ii-t3w2, bulk export)",
    ccaa: "Cataluña",
    registry: CATALONIA_REGISTRY,
    url: "https://analisi.transparenciacatalunya.cat/api/views/j6ii-t3w2/rows.csv?accessType=DOWNLOAD&bom=true&format=true&delimiter=%3B&sorting=true",
    evidence: "column list of NBEM's Catalonia script and the dataset dictionary; not checked against a downloaded file",
  },
  {
    reference: "REFERENCIA CADASTRAL",
    rating: "Qualificació de consum d'energia primaria no renovable",
    primaryEnergy: "Energia primària no renovable",
    emissionsRating: "Qualificacio d'emissions de CO2",
    emissions: "Emissions de CO2",
    issuedOn: "DATA_ENTRADA",
    certificateId: "NUM_CAS",
    inspectionCode: "INFORME_INS_TECNICA_EDIFICI",
  },
);
