// Request logs: a partner finds a request by the id the API gave it; an admin finds any request.
import { expect, test } from "@playwright/test";
import { admin, createKey, shoot, signIn, signUp, type Account } from "./support";

test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const owner: Account = {
  organisation: `Logs Insurer ${run}`,
  email: `logs-${run}@logs.test`,
  password: "a long enough password",
};
let requestId = "";

test("a partner finds a request by its id in Logs", async ({ page, request }) => {
  await signUp(page, owner);
  await page.goto("/keys");
  const key = await createKey(page, "Logs", "test");
  // A refused create: the kind of request a partner looks up.
  const res = await request.post("/api/v1/partner-api/properties", {
    headers: { "X-API-Key": key },
    data: { cadastral_reference: "not a reference" },
  });
  expect(res.status()).toBe(400);
  requestId = res.headers()["x-request-id"]!;
  expect((await res.json()).request_id).toBe(requestId);

  await page.goto("/logs");
  // Rows are written in batches: the request appears within seconds.
  await expect(async () => {
    await page.goto(`/logs?q=${requestId}`);
    await expect(page.getByTestId("request-id")).toHaveText(requestId, { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  const row = page.getByRole("region", { name: "Requests" }).getByRole("row").filter({ hasText: requestId });
  await expect(row).toContainText("POST /api/v1/partner-api/properties");
  await expect(row).toContainText("400");
  await expect(row).toContainText("invalid_cadastral_reference");
  await expect(page.getByText(key)).toHaveCount(0);
  await shoot(page, "logs");

  await page.getByLabel("Status").selectOption("2xx");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No requests match")).toBeVisible();
});

test("a log row opens its detail: the 422's pointer, the body, the headers, never the key", async ({
  page,
  request,
}) => {
  await signIn(page, owner.email, owner.password);
  await page.goto("/keys");
  const key = await createKey(page, "Logs detail", "test");
  const res = await request.post("/api/v1/partner-api/properties", {
    headers: { "X-API-Key": key, "X-Note": `pasted ${key}` },
    data: { cadastral_reference: 42 },
  });
  expect(res.status()).toBe(422);
  const id = res.headers()["x-request-id"]!;
  await expect(async () => {
    await page.goto(`/logs?q=${id}`);
    await page.getByTestId("request-id").getByRole("link", { name: id }).click({ timeout: 1000 });
    await page.waitForURL(/\/logs\/\d+$/, { timeout: 2000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByRole("heading", { level: 1 })).toContainText("POST /api/v1/partner-api/properties");
  await expect(page.getByTestId("field-error")).toContainText("body /cadastral_reference");
  await expect(page.getByTestId("request-body")).toContainText('"cadastral_reference": 42');
  await expect(page.getByText(`${key.slice(0, 17)}…`).first()).toBeVisible();
  await expect(page.getByText("pasted [redacted key]")).toBeVisible();
  expect(await page.content()).not.toContain(key.slice(17));
  await shoot(page, "logs-detail");
});

test("an admin looks up any request id", async ({ page }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto("/admin/requests");
  await page.getByLabel("Request id").fill(requestId);
  await page.getByRole("button", { name: "Find" }).click();
  const row = page.getByRole("region", { name: "Requests" }).getByRole("row").filter({ hasText: requestId });
  await expect(row).toContainText(owner.organisation);
  await expect(row).toContainText("400");
  await shoot(page, "admin-requests");
});
