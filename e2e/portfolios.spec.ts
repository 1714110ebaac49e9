// The Portfolios page: drop a CSV, check the preview (reference column found, first rows), submit,
// follow the progress to completion without reloading, see the invalid rows, download the results
// and open them; an XLSX workbook the same way, with its results as XLSX. Screens at both widths.
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import ExcelJS from "exceljs";
import { shoot, signUp, unitRef, type Account } from "./support";

const run = Date.now().toString(36);
const owner: Account = {
  organisation: `Portfolio Bank ${run}`,
  email: `book-${run}@book.test`,
  password: "a long enough password",
};

const A = unitRef("2749704YJ0624N", "0001");
const B = unitRef("9872023VH5797S", "0003");
const SLOW = unitRef("2749704YJ0624N", "9100"); // the cadastre answers on the durable retry

/** Drops `file` on the drop zone, as a browser does when a file is dragged onto it. */
async function drop(page: Page, name: string, mimeType: string, body: Buffer) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, mimeType, bytes }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], name, { type: mimeType }));
      return transfer;
    },
    { name, mimeType, bytes: [...body] },
  );
  await page.getByTestId("drop-zone").dispatchEvent("drop", { dataTransfer });
}

test("a CSV portfolio from drop to downloaded results", async ({ page }) => {
  await signUp(page, owner);
  await page.goto("/portfolios");
  await expect(page.getByRole("heading", { name: "Portfolios" })).toBeVisible();
  const csv = `owner;Referencia Catastral;external_id\r\nAna;${A};loan-1\r\nLuis;${B};=cmd()\r\nEva;not-a-ref;loan-3\r\nPau;${SLOW};loan-4\r\n`;
  await drop(page, "book.csv", "text/csv", Buffer.from(csv));
  await expect(page.getByTestId("preview-summary")).toContainText(
    "4 rows; references read from column Referencia Catastral, your ids from external_id",
  );
  const preview = page.getByRole("region", { name: "First rows of the file" });
  await expect(preview.getByRole("columnheader", { name: /Referencia Catastral.*\(reference\)/ })).toBeVisible();
  await expect(preview.getByRole("row")).toHaveCount(5);
  await shoot(page, "portfolios-preview");

  await page.getByLabel("Name").fill("Mortgage book Q4");
  await page.getByRole("button", { name: "Register 4 in test mode" }).click();
  await expect(page).toHaveURL(/\/portfolios\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Mortgage book Q4" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Invalid rows" })).toContainText("Line 3");
  // No reload from here: the page follows the batch until it completes.
  await expect(page.getByTestId("batch-counts")).toContainText("4 of 4 final", { timeout: 60_000 });
  await expect(page.getByRole("progressbar", { name: "Items final" })).toHaveAttribute("aria-valuenow", "4");
  await expect(page.getByText("completed").first()).toBeVisible();
  await shoot(page, "portfolio-completed");

  await page.getByLabel("Status").selectOption("invalid");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("region", { name: "Items" }).getByRole("row")).toHaveCount(2);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  const text = readFileSync((await download.path())!, "utf8");
  const lines = text
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  expect(lines[0]).toMatch(/^line,external_id,cadastral_reference,status,property_id,/);
  expect(lines.slice(1).map((l) => l.split(",").slice(0, 4).join(","))).toEqual([
    `1,loan-1,${A},enriched`,
    `2,'=cmd(),${B},enriched`,
    `3,loan-3,not-a-ref,invalid`,
    `4,loan-4,${SLOW},enriched`,
  ]);

  // A loan found by the partner's own id: on the portfolio's page, then across portfolios.
  await page.getByLabel("Status").selectOption("");
  await page.getByLabel("Your id").fill("loan-4");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/external_id=loan-4/);
  const items = page.getByRole("region", { name: "Items" });
  await expect(items.getByRole("row")).toHaveCount(2);
  await expect(items).toContainText(SLOW);
  await page.goto("/portfolios");
  await page.getByLabel("Find an item in any portfolio by your id").fill("loan-1");
  await page.getByRole("button", { name: "Filter" }).click();
  const found = page.getByRole("region", { name: "Items found" });
  await expect(found.getByRole("row")).toHaveCount(2);
  await expect(found).toContainText("Mortgage book Q4");
  await expect(found).toContainText(A);
});

test("an XLSX portfolio, with its results as XLSX", async ({ page }) => {
  await signUp(page, { ...owner, email: `xlsx-${owner.email}`, organisation: `${owner.organisation} XLSX` });
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("Loans");
  sheet.addRow(["Portfolio export, November"]);
  sheet.addRow(["refcat", "external_id", "balance"]);
  sheet.addRow([A, "L-1", 120000]);
  sheet.addRow([B, "L-2", { formula: "1+1", result: 2 }]);
  const bytes = Buffer.from(await book.xlsx.writeBuffer());
  await page.goto("/portfolios");
  await page.getByLabel("Choose a file").setInputFiles({
    name: "loans.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: bytes,
  });
  await expect(page.getByTestId("preview-summary")).toContainText("2 rows; references read from column refcat");
  await page.getByRole("button", { name: "Register 2 in test mode" }).click();
  await expect(page.getByTestId("batch-counts")).toContainText("2 of 2 final", { timeout: 60_000 });
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download XLSX" }).click(),
  ]);
  const results = new ExcelJS.Workbook();
  await results.xlsx.readFile((await download.path())!);
  const rows = results.worksheets[0]!.getSheetValues().slice(1) as unknown[][];
  expect(rows[0]!.slice(1, 5)).toEqual(["line", "external_id", "cadastral_reference", "status"]);
  expect(rows.slice(1).map((r) => r.slice(1, 5))).toEqual([
    [1, "L-1", A, "enriched"],
    [2, "L-2", B, "enriched"],
  ]);
});

test("a file whose columns have no accepted name: the partner picks them in the preview", async ({ page }) => {
  await signUp(page, { ...owner, email: `pick-${owner.email}`, organisation: `${owner.organisation} Pick` });
  await page.goto("/portfolios");
  // Constructed as a bank's export: a title line, then columns named in its own words.
  const csv = `Cartera hipotecaria;;\r\nTitular;Ref. catastral;Préstamo\r\nAna;${A};P-1\r\nLuis;${B};P-2\r\n`;
  await drop(page, "cartera.csv", "text/csv", Buffer.from(csv));
  const picker = page.getByTestId("column-picker");
  await expect(picker).toContainText("2 rows under the header on row 2, but no column is named cadastral_reference");
  const register = page.getByRole("button", { name: "Register 2 in test mode" });
  await expect(register).toBeDisabled();
  await page.getByLabel("Reference column").selectOption("Ref. catastral");
  await page.getByLabel("Your id column").selectOption("Préstamo");
  const preview = page.getByRole("region", { name: "First rows of the file" });
  await expect(preview.getByRole("columnheader", { name: /Ref\. catastral.*\(reference\)/ })).toBeVisible();
  await expect(preview.getByRole("columnheader", { name: /Préstamo.*\(your id\)/ })).toBeVisible();
  await shoot(page, "portfolios-column-picker");
  await register.click();
  await expect(page).toHaveURL(/\/portfolios\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("batch-counts")).toContainText("2 of 2 final", { timeout: 60_000 });
  const items = page.getByRole("region", { name: "Items" });
  await expect(items).toContainText("P-1");
  await expect(items).toContainText(B);
});
