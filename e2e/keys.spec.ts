// API keys as a partner manages them: each mode's page lists only that mode's keys, and rolling a
// key gives a new one at once while the old one expires when chosen.
import { expect, test } from "@playwright/test";
import { createKey, grantLiveAccess, shoot, signUp, type Account } from "./support";

test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const owner: Account = {
  organisation: `Keys Bank ${run}`,
  email: `keys-${run}@keys.test`,
  password: "a long enough password",
};

test("each mode's keys page lists that mode's keys; rolling a key expires the old one", async ({
  page,
  request,
  browser,
}) => {
  await signUp(page, owner);
  await page.goto("/keys");
  const testKey = await createKey(page, "Backend", "test");
  // A new organisation works in test mode only: live is not offered until live access is granted,
  // and the form to ask for it comes after "Create a key".
  await page.goto("/keys");
  await expect(page.getByLabel("Mode", { exact: true }).locator("option")).toHaveText(["Test (sandbox)"]);
  const headings = await page.getByRole("heading", { level: 2 }).allTextContents();
  expect(headings.indexOf("Create a key")).toBeLessThan(headings.indexOf("Live access"));
  await grantLiveAccess(page, browser, owner.organisation);
  await expect(page.getByLabel("Mode", { exact: true }).locator("option")).toHaveText(["Test (sandbox)", "Live"]);
  const liveKey = await createKey(page, "Live backend", "live");
  const live = await request.get("/api/v1/partner-api/properties", { headers: { "X-API-Key": liveKey } });
  expect(live.status()).toBe(200);
  await page.goto("/keys");
  const active = page.getByRole("region", { name: "Active API keys" });
  await expect(active.getByRole("row").filter({ hasText: "Backend" })).toHaveCount(1);
  await expect(active.getByText("Live backend")).toHaveCount(0);

  const list = (key: string) => request.get("/api/v1/partner-api/properties", { headers: { "X-API-Key": key } });
  expect((await list(testKey)).status()).toBe(200);
  await page.getByLabel("Key to roll").selectOption({ label: `${testKey.slice(0, 17)}… (Backend)` });
  await page.getByLabel("Old key stops working").selectOption("now");
  await page.getByRole("button", { name: "Roll key" }).click();
  const rolled = (await page.getByTestId("secret-value").textContent())!;
  expect(rolled).toMatch(/^finca_test_/);
  await shoot(page, "keys-rolled");
  expect((await list(testKey)).status()).toBe(401);
  expect((await list(rolled)).status()).toBe(200);

  await page.goto("/keys");
  await page.getByText(/Revoked and expired keys/).click();
  await expect(
    page
      .getByRole("region", { name: "Revoked and expired API keys" })
      .getByRole("row")
      .filter({ hasText: testKey.slice(0, 17) }),
  ).toContainText("expired");

  await page.getByRole("button", { name: "live" }).click();
  await expect(page.getByRole("heading", { name: "Active live keys" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Active API keys" }).getByText("Live backend")).toBeVisible();
  await expect(page.getByRole("region", { name: "Active API keys" }).getByText("Backend", { exact: true })).toHaveCount(
    0,
  );
});
