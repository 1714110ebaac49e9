// Comunitat Valenciana: the yearly "ETIQUETA" CSVs per province from gceedadesobertes.aven.es (one
// dataset, several files). IVACE's own description of the download names its 14 columns; the `;`
// separator and day-first dates are NBEM's reading alone. The files give the end of validity (ten
// years from the certifier's validation, five for a G since RD 390/2021, as IVACE says), not the
// issue date; a file's year is the year of registration. Their certificates carry this dataset's
// own registry label, not the live WFS's: a record says which copy it came from.
import { certificateDataset } from "../datasets/certificates";
import { NBEM_MAIN, nbemScript } from "../datasets/evidence";

/** IVACE's "Descripción datos de descarga", as a peer keeps it beside the files it analyses. */
const IVACE_DESCRIPTION =
  'IVACE, "Portal de datos abiertos del registro de los certificados de eficiencia energética en la ' +
  'Comunitat Valenciana: Descripción datos de descarga" (a copy in iciarglez/PROYECTO_UNIDAD_4, ' +
  "Descripcion_datos_de_descarga.pdf)";

export const valenciaDataset = certificateDataset(
  {
    id: "val-gva",
    title: "Comunitat Valenciana: GVA yearly certificate files (per year and province)",
    registry: "GVA registro de certificados (ficheros ETIQUETA)",
    url: "https://gceedadesobertes.aven.es/dadesobertes/Home/GetFile?anyo=2022&provincia=VALENCIA&tipo=ETIQUETA&formato=csv",
    download: "one CSV per year (2013 on) and province (ALICANTE, CASTELLÓN, VALENCIA): import them all as one dataset",
    evidence: {
      level: "confirmed",
      citations: [
        `${IVACE_DESCRIPTION}: the publisher's own list of the 14 columns (REGISTRO, TIPO_REGISTRO, ` +
          "VALIDO_HASTA, ANYO_CONSTRUCCION, USO_EDIFICIO, DIRECCION, MUNICIPIO, PROVINCIA, CODIGO_POSTAL, " +
          "REFERENCIA_CATASTRAL, CONSUMO_EP_LETRA, CONSUMO_EP_VALOR, EMISIONES_CO2_LETRA, EMISIONES_CO2_VALOR), " +
          "several references of one certificate separated by a comma, files per year and province updated monthly",
        `${nbemScript("C_Valenciana")}: the same column names`,
        "single source (NBEM alone): `;` as the separator " +
          `(${NBEM_MAIN} reads each yearly file with it) and VALIDO_HASTA day first (NBEM takes the year from ` +
          "its characters 7-10); IVACE's description states neither, nor the decimal mark (the reader takes either)",
      ],
    },
  },
  {
    reference: "REFERENCIA_CATASTRAL",
    rating: "CONSUMO_EP_LETRA",
    primaryEnergy: "CONSUMO_EP_VALOR",
    emissionsRating: "EMISIONES_CO2_LETRA",
    emissions: "EMISIONES_CO2_VALOR",
    validUntil: "VALIDO_HASTA",
    certificateId: "REGISTRO",
  },
);
