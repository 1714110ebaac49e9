// Writes the register index's XLSX fixtures (lib/registers/datasets/fixtures/*.xlsx): constructed
// rows under the column names NBEM's scripts read, dates and figures as typed cells, as Excel
// writes them. Run again after changing a row: `npx tsx scripts/register-xlsx-fixtures.ts`.
import path from "node:path";
import ExcelJS from "exceljs";

type Cell = string | number | Date | null;
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

interface Sheet {
  file: string;
  /** Lines above the header, as the publisher puts them. */
  title: string[];
  header: string[];
  rows: Cell[][];
}

const SHEETS: Sheet[] = [
  {
    file: "ast-principado.xlsx",
    title: ["REGISTRO DE CERTIFICADOS DE EFICIENCIA ENERGÉTICA DE EDIFICIOS"],
    header: ["Nº DE REGISTRO", "FECHA REGISTRO", "REFERENCIA CATASTRAL", "DIRECCION", "LOCALIDAD", "CODIGO POSTAL", "ZONA CLIMAT", "TIPO EDIFICIO", "TIPO EDIFICIO O PARTE", "AÑO DE EDIFICACION", "SUPERFICIE UTIL (m2)", "CONSUMO ENERGIA PRIMARIA (kWh/m2año)", "CALIF CONSUMO ENERGIA PRIMARIA", "EMISIONES CO2 RATIO (kgCO2/m2año)", "CALIFICACION EMISIONES"],
    rows: [
      ["AST-0001", day("2019-05-10"), "3342101VJ1634S0001KH", "CALLE FICTICIA 3", "OVIEDO", 33001, "D1", "EXISTENTE", "VIVIENDA INDIVIDUAL", 1968, 80, 198.4, "E", 41.7, "E"],
      ["AST-0002", day("2013-09-01"), "3342101 VJ1634S 0001 kh.", "CALLE FICTICIA 3", "OVIEDO", 33001, "D1", "EXISTENTE", "VIVIENDA INDIVIDUAL", 1968, 80, 251, "F", 53.2, "F"],
      ["AST-0003", day("2021-02-03"), "3342101VJ1634S0002LJ;3342101VJ1634S0003BK", "CALLE FICTICIA 3", "OVIEDO", 33001, "D1", "EXISTENTE", "VIVIENDA INDIVIDUAL", 1968, 75, 139.5, "D", 29.1, "D"],
      ["AST-0004", day("2018-04-04"), "3342101VJ1634S", "CALLE FICTICIA 3", "OVIEDO", 33001, "D1", "EXISTENTE", "BLOQUE COMPLETO", 1968, 1200, 176, "E", 37.5, "E"],
      ["AST-0005", day("2020-01-01"), "SIN REFERENCIA", "CALLE FICTICIA 9", "OVIEDO", 33001, "D1", "EXISTENTE", "VIVIENDA UNIFAMILIAR", 2002, 140, 100, "C", 21, "C"],
      ["AST-0006", day("2020-01-01"), "3342101VJ1634S0003BK", "CALLE FICTICIA 3", "OVIEDO", 33001, "D1", "EXISTENTE", "LOCAL", 1968, 50, null, null, null, null],
    ],
  },
  {
    file: "ctb-dgicc.xlsx",
    title: [],
    header: ["CERTIFICADO", "TIPO CERTIFICADO", "USO EDIFICIO", "ED. VÍA", "ED. MUNICIPIO", "REFERENCIA CATASTRAL", "kWh/m2*año", "CALIF. CONSUMO", "kgCO2/m2*año", "CALIF.EMI.GLOBALES", "VIGENCIA DESDE", "NORMA CONSTRUCCIÓN"],
    rows: [
      ["CTB-0001", "EXISTENTE", "Vivienda individual", "CALLE FICTICIA 4 39001", "39075 - Santander", "9182706VP2398S0001XE", 201.3, "E - Calificación E", 42.2, "E - Calificación E", day("2019-05-10"), "Anterior a NBE-CT-79"],
      ["CTB-0002", "EXISTENTE", "Vivienda individual", "CALLE FICTICIA 4 39001", "39075 - Santander", "9182706-VP2398S-0001-XE", 262.8, "F - Calificación F", 55.1, "F - Calificación F", day("2013-09-01"), "Anterior a NBE-CT-79"],
      ["CTB-0003", "EXISTENTE", "Vivienda individual", "CALLE FICTICIA 4 39001", "39075 - Santander", "9182706VP2398S0002MR y 9182706VP2398S0003QT", 141.9, "D - Calificación D", 30.4, "D - Calificación D", day("2021-02-03"), "Anterior a NBE-CT-79"],
      ["CTB-0004", "EXISTENTE", "Bloque completo", "CALLE FICTICIA 4 39001", "39075 - Santander", "9182706VP2398S", 181.6, "E - Calificación E", 38.8, "E - Calificación E", day("2018-04-04"), "Anterior a NBE-CT-79"],
      ["CTB-0005", "EXISTENTE", "Vivienda unifamiliar", "CALLE FICTICIA 9 39001", "39075 - Santander", "9182706VP23", 99.2, "C - Calificación C", 20.8, "C - Calificación C", day("2020-01-01"), "CTE 2006"],
      ["CTB-0006", "EXISTENTE", "Local", "CALLE FICTICIA 4 39001", "39075 - Santander", "9182706VP2398S0003QT", null, "N/D", null, "N/D", day("2020-01-01"), "CTE 2006"],
    ],
  },
];

const folder = path.join(process.cwd(), "lib/registers/datasets/fixtures");
for (const sheet of SHEETS) {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet("Hoja1");
  for (const line of sheet.title) ws.addRow([line]);
  ws.addRow(sheet.header);
  for (const row of sheet.rows) ws.addRow(row);
  ws.eachRow((row) => row.eachCell((cell) => cell.value instanceof Date && (cell.numFmt = "dd/mm/yyyy")));
  // A second sheet, as publishers add notes: only the first is read.
  workbook.addWorksheet("Notas").addRow(["Datos de ejemplo"]);
  await workbook.xlsx.writeFile(path.join(folder, sheet.file));
  console.log(`wrote ${sheet.file}`);
}
