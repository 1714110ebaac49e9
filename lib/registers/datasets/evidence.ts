// Citations shared by several datasets' format evidence.

/** The peer that names most regions' columns: its scripts read the real downloads (MIT). */
export const NBEM = "CarlosBeltranVelamazan/NBEM (MIT; Beltrán-Velamazán et al., Heliyon 2024)";

export const nbemScript = (region: string) =>
  `${NBEM}, Internal_scripts/Scripts_homogeneizar_BBDD/Crear_tabla_estándar_${region}.py`;

/** NBEM's main script, which names the files it reads per region and how (delimiter, file names). */
export const NBEM_MAIN = `${NBEM}, Internal_scripts/A_1_Comando_principal.py`;
