// The Properties list follows enrichment by itself: a `9100` reference (the cadastre answers only
// on the durable retry) shows `enriching`, then `enriched`, without a reload.
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
