// The Properties list follows enrichment by itself: a `9100` reference (the cadastre answers only
// on the durable retry) shows `enriching`, then `enriched`, without a reload; rows made elsewhere
// (by the API) appear on a list's first page without a reload.
import { expect, test } from "@playwright/test";
import { createKey, shoot, signUp, unitRef, type Account } from "./support";

const run = Date.now().toString(36);
const owner: Account = {
  organisation: `List Bank ${run}`,
  email: `list-${run}@list.test`,
  password: "a long enough password",
};

test("the Properties list updates while a 9100 property finishes", async ({ page, request }) => {
  await signUp(page, owner);
  await page.goto("/keys");
  const key = await createKey(page, "List", "test");
  const reference = unitRef("2749704YJ0624N", "9100");
  const res = await request.post("/api/v1/partner-api/properties", {
    headers: { "X-API-Key": key },
    data: { cadastral_reference: reference },
  });
  expect((await res.json()).status).toBe("enriching");
  await page.goto("/properties");
  const row = page.getByRole("region", { name: "Properties" }).getByRole("row").filter({ hasText: reference });
  await expect(row).toContainText("enriching");
  await expect(page.getByText("this list updates by itself")).toBeVisible();
  // No reload from here: the page refreshes itself until nothing is enriching.
  await expect(row).toContainText("enriched", { timeout: 60_000 });
  await expect(row).not.toContainText("enriching");
  await expect(page.getByText("this list updates by itself")).toHaveCount(0);
});

test("a property created by API while the list is open appears without a reload, and so does its request", async ({
  page,
  request,
}) => {
  await signUp(page, { ...owner, email: `list-new-${run}@list.test`, organisation: `List New ${run}` });
  await page.goto("/keys");
  const key = await createKey(page, "List new", "test");
  await page.goto("/properties");
  await expect(page.getByText("New rows appear by themselves")).toBeVisible();
  const reference = unitRef("2749704YJ0624N", "0007");
  const rows = page.getByRole("region", { name: "Properties" }).getByRole("row").filter({ hasText: reference });
  await expect(rows).toHaveCount(0);
  const res = await request.post("/api/v1/partner-api/properties", {
    headers: { "X-API-Key": key },
    data: { cadastral_reference: reference },
  });
  expect(res.status()).toBe(201);
  // No reload, no navigation: the first page polls.
  await expect(rows).toHaveCount(1);
  await page.goto("/logs");
  await expect(page.getByText("New rows appear by themselves")).toBeVisible();
  const gets = page.getByRole("region", { name: "Requests" }).getByRole("row").filter({ hasText: "GET" });
  const before = await gets.count();
  expect((await request.get("/api/v1/partner-api/properties", { headers: { "X-API-Key": key } })).status()).toBe(200);
  await expect(gets).toHaveCount(before + 1);
});

test("a property page: an unknown reference says so once; a found one links its location out", async ({
  page,
  request,
}) => {
  await signUp(page, { ...owner, email: `list-page-${run}@list.test`, organisation: `List Page ${run}` });
  await page.goto("/keys");
  const key = await createKey(page, "Page", "test");
  const create = async (reference: string) =>
    (
      await request.post("/api/v1/partner-api/properties", {
        headers: { "X-API-Key": key },
        data: { cadastral_reference: reference },
      })
    ).json();
  // 9404: the sandbox cadastre knows no such reference.
  const unknown = await create(unitRef("2749704YJ0624N", "9404"));
  expect(unknown.status).toBe("not_found");
  await page.goto(`/properties/${unknown.property_id}`);
  await expect(page.getByTestId("not-found")).toContainText("The cadastre has no property with this reference");
  await expect(page.getByText("not available")).toHaveCount(0);
  const sources = page.locator("section").filter({ has: page.getByRole("heading", { name: "Sources", exact: true }) });
  // The cadastre answered "not found"; the two sources never asked are skipped, none "completed".
  await expect(sources.getByText("not found", { exact: true })).toHaveCount(1);
  await expect(sources.getByText("skipped", { exact: true })).toHaveCount(2);
  await expect(sources.getByText("completed", { exact: true })).toHaveCount(0);
  await shoot(page, "property-not-found");

  const found = await create(unitRef("2749704YJ0624N", "0008"));
  await page.goto(`/properties/${found.property_id}`);
  const parcel = found.cadastral_reference.slice(0, 14);
  await expect(page.getByRole("link", { name: "Cadastre viewer" })).toHaveAttribute(
    "href",
    `https://www1.sedecatastro.gob.es/Cartografia/mapa.aspx?refcat=${parcel}`,
  );
  const { latitude, longitude } = found.location;
  await expect(page.getByRole("link", { name: "OpenStreetMap" })).toHaveAttribute(
    "href",
    `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=18/${latitude}/${longitude}`,
  );
  // The timeline's axis reads in one unit.
  const axis = page.getByRole("figure", { name: "Attempts per source over time" }).locator("span.absolute");
  const labels = (await axis.allTextContents()).filter((t) => /\d/.test(t));
  expect(labels.length).toBeGreaterThanOrEqual(3);
  expect(new Set(labels.map((l) => l.split(" ")[1])).size).toBe(1);
});
