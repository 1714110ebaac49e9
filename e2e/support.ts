// What every portal spec shares: accounts, signing up and in, and screenshots at both widths, each
// checked for overflow and by axe.
import { expect, type Browser, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { mkdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { checkLetters } from "../lib/cadastral-reference";

export type Account = { organisation: string; email: string; password: string };

/** The operator account scripts/e2e-server.mjs seeds. */
export const admin = { email: "admin@finca.test", password: "admin-password-e2e" };

/** A valid 20-character reference (check letters computed) of a sandbox scenario. */
export const unitRef = (parcel: string, unit: string) => parcel + unit + checkLetters(parcel + unit);

mkdirSync("e2e/screenshots", { recursive: true });

export async function shoot(page: Page, name: string) {
  for (const [label, size] of [
    ["desktop", { width: 1280, height: 800 }],
    ["mobile", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `e2e/screenshots/${name}-${label}.png`, fullPage: true });
    // Readable on a phone: nothing may widen the page beyond the screen (wide tables scroll inside their box).
    const wider = await page.evaluate((width) => {
      if (document.documentElement.scrollWidth <= width) return [];
      return [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > width + 1 && !e.closest("[data-scrolls]"))
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
    }, size.width);
    expect(wider, `${name} at ${label} width`).toEqual([]);
    // Accessible at both widths: no axe violation of any impact (WCAG 2.x A/AA and best practices).
    // A page that refreshes itself (AutoRefresh) swaps its <title> while it re-renders: axe reads it
    // with its refreshes paused as for a hidden tab, and once more if a refresh already under way
    // landed during the first reading.
    await page.evaluate(() =>
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true }),
    );
    const analyze = async () => {
      await expect.poll(() => page.title()).not.toBe("");
      return (await new AxeBuilder({ page }).analyze()).violations;
    };
    let violations = await analyze();
    if (violations.some((v) => v.id === "document-title")) violations = await analyze();
    await page.evaluate(() => delete (document as { visibilityState?: unknown }).visibilityState);
    const found = violations.map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    );
    expect.soft(found, `axe on ${name} at ${label} width`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

export async function signUp(page: Page, who: Account) {
  await page.goto("/sign-up");
  await page.getByLabel("Organisation").fill(who.organisation);
  await page.getByLabel("Work email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await fillSignIn(page, email, password);
  await expect(page).toHaveURL(/\/(dashboard|admin)$/);
}

export async function fillSignIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * Live mode for the signed-in owner's organisation, granted as it is in production: the owner asks
 * on the keys page, an operator approves in the console (a browser of their own).
 */
export async function grantLiveAccess(page: Page, browser: Browser, organisation: string) {
  await page.goto("/keys");
  await page.getByLabel("Company (legal name)").fill(`${organisation} S.A.`);
  await page.getByLabel("Contact (name, email or phone)").fill("Ana Ruiz, ana@example.test");
  await page.getByLabel("Intended use").fill("Checking the properties of our mortgage book");
  await page.getByRole("button", { name: "Request live access" }).click();
  await expect(page.getByTestId("live-access")).toContainText("Requested on");
  const context = await browser.newContext();
  const operator = await context.newPage();
  await signIn(operator, admin.email, admin.password);
  await operator.goto("/admin/users");
  const row = operator
    .getByRole("region", { name: "Live access requests" })
    .getByRole("row")
    .filter({ hasText: organisation });
  await expect(row).toContainText("Checking the properties of our mortgage book");
  await row.getByRole("button", { name: "Approve" }).click();
  await expect(row.getByText("approved")).toBeVisible();
  await context.close();
  await page.goto("/keys");
  await expect(page.getByTestId("live-access")).toHaveCount(0);
  // The owner is told, on every page of test mode, without asking.
  await expect(page.getByTestId("live-access-notice")).toContainText("Finca approved your organisation's live access");
}

/** Creates a key on the keys page (the page must be open) and returns it. */
export async function createKey(page: Page, name: string, mode: "test" | "live") {
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Mode", { exact: true }).selectOption(mode);
  await page.getByRole("button", { name: "Create key" }).click();
  const value = (await page.getByTestId("secret-value").textContent())!;
  expect(value).toMatch(new RegExp(`^finca_${mode}_`));
  return value;
}

export type Received = { headers: http.IncomingHttpHeaders; body: string; path: string };

/** A local webhook receiver: what it got, in order; it answers `status()` (200 "thanks" by default). */
export async function startReceiver(status: () => number = () => 200) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString(), path: req.url ?? "" });
      const code = status();
      res.writeHead(code).end(code === 200 ? "thanks" : "receiver error");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/finca`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
