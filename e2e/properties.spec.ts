// The Properties list follows enrichment by itself: a `9100` reference (the cadastre answers only
// on the durable retry) shows `enriching`, then `enriched`, without a reload; rows made elsewhere
// (by the API) appear on a list's first page without a reload.
import { expect, test } from "@playwright/test";
import { createKey, signUp, unitRef, type Account } from "./support";

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
