// Every page of the portal, the admin console, the sign-in pages and the docs, with data on them,
// at desktop and phone widths: no overflow and no axe violation of any impact
// (shoot() checks both). The list follows app/**/page.tsx; a new page belongs here.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { admin, createKey, shoot, signIn, signUp, unitRef, type Account } from "./support";

const run = Date.now().toString(36);
const owner: Account = {
  organisation: `A11y Estates ${run}`,
  email: `a11y-${run}@a11y.test`,
  password: "a long enough password",
};

const PUBLIC = [
  "/sign-in",
  "/sign-up",
  "/invite/not-a-token",
  "/forgot-password",
  "/reset-password/not-a-token",
  "/docs",
  "/docs/portfolios",
  "/docs/api",
  "/docs/errors",
  "/no-such-page",
];
const PARTNER = [
  "/dashboard",
  "/properties",
  "/portfolios",
  "/keys",
  "/webhooks",
  "/webhooks/deliveries",
  "/logs",
  "/team",
  "/team/activity",
  "/account",
];
const ADMIN = [
  "/admin",
  "/admin/users",
  "/admin/keys",
  "/admin/webhooks",
  "/admin/requests?q=req_none",
  "/admin/registers",
  "/admin/activity",
  "/admin/outbox",
  "/admin/account",
];
const name = (p: string) => `a11y${p.replaceAll(/[/?=]/g, "-")}`;

test("every page lists here: the pages of app/", () => {
  const pages: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.name === "page.tsx") pages.push(dir);
    }
  };
  walk("app");
  const routes = pages
    .map(
      (d) =>
        "/" +
        path
          .relative("app", d)
          .split(path.sep)
          .filter((s) => !/^\(.*\)$/.test(s))
          .join("/"),
    )
    .map((r) => r.replace(/\/$/, "") || "/");
  // Dynamic routes are visited with real ids below; "/" redirects to sign-in or the dashboard.
  const listed = new Set([...PUBLIC, ...PARTNER, ...ADMIN].map((p) => p.split("?")[0]!));
  const missing = routes.filter((r) => !r.includes("[") && r !== "/" && !listed.has(r));
  expect(missing).toEqual([]);
});

test("public pages", async ({ page }) => {
  for (const p of PUBLIC) {
    await page.goto(p);
    await shoot(page, name(p));
  }
});

test("partner pages, with a key, a property, a portfolio, an endpoint and a delivery", async ({ page, request }) => {
  await signUp(page, owner);
  await page.goto("/keys");
  const key = await createKey(page, "A11y", "test");
  const created = await request.post("/api/v1/partner-api/properties", {
    headers: { "X-API-Key": key },
    data: { cadastral_reference: unitRef("2749704YJ0624N", "0001") },
  });
  const { property_id } = await created.json();
  const endpoint = await (
    await request.post("/api/v1/partner-api/webhook-endpoints", {
      headers: { "X-API-Key": key },
      data: { url: "http://127.0.0.1:9/a11y" },
    })
  ).json();
  const items = [
    { cadastral_reference: unitRef("2749704YJ0624N", "0002") },
    { cadastral_reference: "not a reference" },
  ];
  const batch = await (
    await request.post("/api/v1/partner-api/batches", {
      headers: { "X-API-Key": key },
      data: { items, name: "A11y book" },
    })
  ).json();
  for (const p of [
    ...PARTNER,
    `/properties/${property_id}`,
    `/portfolios/${batch.batch_id}`,
    `/webhooks/${endpoint.id}`,
  ]) {
    await page.goto(p);
    await shoot(page, name(p.replace(/[0-9a-f-]{36}/, "id")));
  }
  // A request's detail, once its row is written (within seconds).
  await expect(async () => {
    await page.goto("/logs");
    await page.getByTestId("request-id").getByRole("link").last().click({ timeout: 1000 });
    await page.waitForURL(/\/logs\/\d+$/, { timeout: 2000 });
  }).toPass({ timeout: 60_000 });
  await shoot(page, "a11y-logs-id");
});

test("admin pages", async ({ page }) => {
  await signIn(page, admin.email, admin.password);
  for (const p of ADMIN) {
    await page.goto(p);
    await shoot(page, name(p));
  }
});
