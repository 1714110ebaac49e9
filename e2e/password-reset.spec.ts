// "Forgot your password?" through the portal: the request is answered alike for an address without
// an account; with no SMTP_URL (this server's setting) the message waits in the admin console's
// Outbox, where an operator reads its link; the link sets a new password and signs in, once.
import { expect, test, type Browser } from "@playwright/test";
import { admin, fillSignIn, shoot, signIn, signUp, type Account } from "./support";

const run = Date.now().toString(36);
const owner: Account = {
  organisation: `Reset Bank ${run}`,
  email: `reset-${run}@reset.test`,
  password: "the first password",
};

test.describe.configure({ mode: "serial" });

const visitor = async (browser: Browser) => (await browser.newContext()).newPage();

test("a reset link from the outbox sets a new password once", async ({ browser }) => {
  await signUp(await visitor(browser), owner);

  const page = await visitor(browser);
  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  const ask = async (email: string) => {
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Email me a reset link" }).click();
    const notice = page.getByRole("status").filter({ hasText: "If an account has this address" });
    return (await notice.textContent())?.trim();
  };
  const unknown = await ask(`nobody-${run}@reset.test`);
  expect(unknown).toContain("we have emailed it a link");
  expect(await ask(owner.email)).toBe(unknown);

  const operator = await visitor(browser);
  await signIn(operator, admin.email, admin.password);
  await operator.goto("/admin/outbox");
  const email = operator.getByTestId("email").filter({ hasText: owner.email });
  await expect(email).toHaveCount(1);
  // The worker marks it held a moment after it was written: the page shows what it found.
  await expect(async () => {
    await operator.reload();
    await expect(email.getByText("held", { exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass();
  await email.getByText("Reset your Finca password").click();
  const text = (await email.locator("pre").textContent()) ?? "";
  const link = /https?:\/\/\S+\/reset-password\/[\w-]+/.exec(text)![0];
  await expect(operator.getByTestId("email").filter({ hasText: `nobody-${run}` })).toHaveCount(0);

  await page.goto(link);
  await page.getByLabel("New password").fill("the second password");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  const again = await visitor(browser);
  await again.goto(link);
  await expect(again.getByRole("heading", { name: "Reset link not valid" })).toBeVisible();

  const old = await visitor(browser);
  await old.goto("/sign-in");
  await fillSignIn(old, owner.email, owner.password);
  await expect(old.getByTestId("form-error")).toBeVisible();
  await signIn(await visitor(browser), owner.email, "the second password");
});

test("the reset request page and the admin Outbox, at both widths", async ({ browser }) => {
  const page = await visitor(browser);
  await page.goto("/forgot-password");
  await shoot(page, "forgot-password");
  const operator = await visitor(browser);
  await signIn(operator, admin.email, admin.password);
  await operator.goto("/admin/outbox");
  await operator.getByTestId("email").first().getByText("Reset your Finca password").click();
  await shoot(operator, "admin-outbox");
});
