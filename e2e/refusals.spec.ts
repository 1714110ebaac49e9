// Refusals answered as refusals, never as a server failure (500): a server action posted from
// another site (Next.js's own CSRF check answers 500; proxy.ts answers 403 first), and an operator's
// refresh of a register dataset that does not exist (the console shows why).
import { expect, test } from "@playwright/test";
import { admin, signIn } from "./support";

test("a server action from another origin is refused with 403", async ({ request, baseURL }) => {
  const action = { "Next-Action": "7f".repeat(21) };
  for (const origin of ["https://evil.example", "null"]) {
    const res = await request.post("/sign-in", { headers: { ...action, Origin: origin }, multipart: { x: "1" } });
    expect(res.status(), origin).toBe(403);
  }
  // A form posted without JavaScript: multipart, without the Next-Action header.
  const form = await request.post("/sign-in", { headers: { Origin: "https://evil.example" }, multipart: { x: "1" } });
  expect(form.status()).toBe(403);
  // This site's own origin goes on to Next.js (which knows no such action).
  const own = await request.post("/sign-in", { headers: { ...action, Origin: baseURL! }, multipart: { x: "1" } });
  expect(own.status()).not.toBe(403);
  expect(own.status()).toBeLessThan(500);
});

test("an operator's refresh of a dataset that does not exist is refused, saying so", async ({ page }) => {
  await signIn(page, admin.email, admin.password);
  await page.goto("/admin/registers");
  const row = page.getByTestId("register-dataset").filter({ hasText: "rio-larioja" });
  // As a hand-made request would: the button posts another dataset's id.
  await row.locator('input[name="id"]').evaluate((input: HTMLInputElement) => {
    input.value = "no-such-dataset";
  });
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/admin/registers"));
  await row.getByRole("button", { name: "Refresh now" }).click();
  expect((await answered).status()).toBe(200);
  await expect(row.getByTestId("action-error")).toHaveText('There is no register dataset "no-such-dataset".');
});
