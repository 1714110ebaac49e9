// The portal driven as a partner and an operator would, in Debian's Chromium, against the real
// server (npm start) with embedded PGlite or PostgreSQL. Screenshots go to e2e/screenshots/.
import { expect, test, type Page } from "@playwright/test";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync } from "node:fs";

test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const owner = { organisation: `Acme Bank ${run}`, email: `owner-${run}@acme.test`, password: "correct horse battery" };
const other = { organisation: `Other Insurer ${run}`, email: `other-${run}@other.test`, password: "another long password" };
// Valid references (check letters computed) for the sandbox scenarios 9100 and 0001.
const SLOW = "2749704YJ0624N9100BG";

let apiKey = "";
let propertyId = "";
let received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
let respondWith = 200;
let receiver: http.Server;
let receiverUrl = "";

mkdirSync("e2e/screenshots", { recursive: true });

async function shoot(page: Page, name: string) {
  for (const [label, size] of [["desktop", { width: 1280, height: 800 }], ["mobile", { width: 390, height: 844 }]] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `e2e/screenshots/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function signUp(page: Page, who: typeof owner) {
  await page.goto("/sign-up");
  await page.getByLabel("Organisation").fill(who.organisation);
  await page.getByLabel("Work email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function signIn(page: Page, email: string, password: string, expectSuccess = true) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  if (expectSuccess) await expect(page).toHaveURL(/\/(dashboard|admin)$/);
}

test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(respondWith).end(respondWith === 200 ? "thanks" : "receiver error");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/finca`;
});
test.afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

test("sign-in and sign-up pages; pages are guarded", async ({ page }) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in/);
  await shoot(page, "sign-in");
  await page.goto("/sign-up");
  await shoot(page, "sign-up");
  await signIn(page, "nobody@acme.test", "wrong password here", false);
  await expect(page.locator("p[role=alert]")).toContainText("Wrong email or password");
});

test("a partner signs up and creates a test key", async ({ page }) => {
  await signUp(page, owner);
  await expect(page.getByText(`No test properties yet`)).toBeVisible();
  await shoot(page, "overview-empty");
  await page.getByRole("link", { name: "API keys" }).first().click();
  await page.getByLabel("Name").fill("Origination backend");
  await page.getByLabel("Mode").selectOption("test");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = page.getByTestId("secret-value");
  await expect(key).toContainText("finca_test_");
  apiKey = (await key.textContent())!.trim();
  await expect(page.getByRole("cell", { name: apiKey.slice(0, 17) + "…" })).toBeVisible();
  await shoot(page, "keys");
});

test("a property registered through the API reaches enriched in the portal", async ({ page, request }) => {
  await signIn(page, owner.email, owner.password);
  const res = await request.post("/api/v1/partner-api/properties", { headers: { "X-API-Key": apiKey }, data: { cadastral_reference: SLOW } });
  expect(res.status()).toBe(201);
  const body = await res.json();
  expect(body.status).toBe("enriching");
  propertyId = body.property_id;
  await page.goto(`/properties/${propertyId}`);
  await expect(page.getByText("this page updates by itself")).toBeVisible();
  await shoot(page, "property-enriching");
  // No reload: the page refreshes itself until the durable retry finishes the enrichment.
  await expect(page.getByTestId("property-json")).toContainText('"status": "enriched"', { timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "Timeline" })).toBeVisible();
  await expect(page.getByText("cadastre #2")).toBeVisible();
  await shoot(page, "property-enriched");

  await page.goto("/properties");
  await expect(page.getByRole("link", { name: SLOW })).toBeVisible();
  await page.getByLabel("Status").selectOption("not_found");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No properties match")).toBeVisible();
  await page.goto("/properties");
  await page.getByLabel("Cadastral reference").fill("12345");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.locator("p[role=alert]")).toContainText("must be 14 or 20 characters");
  await shoot(page, "properties");
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Enrichment success by source" })).toBeVisible();
  await shoot(page, "overview");
});

test("a webhook endpoint receives a test event, seen as delivered", async ({ page }) => {
  await signIn(page, owner.email, owner.password);
  await page.goto("/webhooks");
  await page.getByLabel("Endpoint URL").fill(receiverUrl);
  await page.getByLabel("Description").fill("e2e receiver");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("secret-value")).toContainText("whsec_");
  received = [];
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => received.length, { timeout: 20_000 }).toBeGreaterThan(0);
  expect(JSON.parse(received[0]!.body).type).toBe("webhook.test");
  expect(received[0]!.headers["webhook-signature"]).toMatch(/^v1,/);
  await expect
    .poll(async () => {
      await page.reload();
      return page.getByTestId("delivery").filter({ hasText: "webhook.test" }).filter({ hasText: "succeeded" }).count();
    })
    .toBeGreaterThan(0);
  await page.getByText("Reveal signing secret").click();
  await shoot(page, "webhooks");
});

test("an admin replays a failed delivery", async ({ page }) => {
  // A failing receiver: the test event fails its three attempts (compressed test schedule).
  respondWith = 500;
  await signIn(page, owner.email, owner.password);
  await page.goto("/webhooks");
  received = [];
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  await page.getByRole("button", { name: "Sign out" }).click();

  respondWith = 200;
  await signIn(page, "admin@finca.test", "admin-password-e2e");
  await page.goto("/admin/webhooks");
  const row = page.getByTestId("admin-delivery").filter({ hasText: owner.organisation }).filter({ hasText: "failed" }).first();
  await expect
    .poll(async () => {
      await page.reload();
      return row.count();
    })
    .toBeGreaterThan(0);
  await shoot(page, "admin-webhooks");
  const before = received.length;
  await row.getByRole("button", { name: "Replay" }).click();
  await expect.poll(() => received.length, { timeout: 20_000 }).toBeGreaterThan(before);
  const ids = new Set(received.slice(-2).map((r) => r.headers["webhook-id"]));
  expect(ids.size).toBe(1); // the replay kept the webhook-id
  await page.goto("/admin");
  await expect(page.getByRole("cell", { name: owner.organisation }).first()).toBeVisible();
  await shoot(page, "admin");
  await page.goto("/admin/keys");
  await page.getByLabel("Visible start").fill(apiKey.slice(0, 15));
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("cell", { name: owner.organisation }).first()).toBeVisible();
  await shoot(page, "admin-keys");
});

test("a member of another partner is refused partner A's property", async ({ page }) => {
  await signUp(page, other);
  const res = await page.goto(`/properties/${propertyId}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByText(SLOW)).toHaveCount(0);
  await page.goto("/properties");
  await expect(page.getByText("No properties match")).toBeVisible();
});

test("an owner invites a member, who joins", async ({ page, browser }) => {
  await signIn(page, owner.email, owner.password);
  await page.goto("/team");
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = (await page.getByTestId("secret-value").textContent())!;
  await shoot(page, "team");
  const member = await browser.newPage();
  await member.goto(link);
  await member.getByLabel("Email").fill(`member-${run}@acme.test`);
  await member.getByLabel("Password").fill("member password long");
  await member.getByRole("button", { name: "Join" }).click();
  await expect(member).toHaveURL(/\/dashboard$/);
  await member.goto(`/properties/${propertyId}`);
  await expect(member.getByTestId("property-json")).toContainText(propertyId);
  await member.goto(link);
  await expect(member.getByText("Invitation not valid")).toBeVisible();
  await member.close();
});

test("docs render locally", async ({ page }) => {
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: "API reference" })).toBeVisible();
  await expect(page.getByText("/api/v1/partner-api/properties").first()).toBeVisible();
  await shoot(page, "docs");
  await page.goto("/docs/errors#rate_limited");
  await expect(page.locator("#rate_limited")).toContainText("429");
  await shoot(page, "docs-errors");
});

test("revoking the key makes the API answer 401", async ({ page, request }) => {
  await signIn(page, owner.email, owner.password);
  await page.goto("/keys");
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Revoke" }).first().click();
  await expect(page.getByText("revoked")).toBeVisible();
  const res = await request.get("/api/v1/partner-api/properties", { headers: { "X-API-Key": apiKey } });
  expect(res.status()).toBe(401);
  expect((await res.json()).code).toBe("missing_api_key");
});
