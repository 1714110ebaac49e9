// Debugging webhooks as a partner does: find a delivery by the webhook-id the receiver logged and
// see its body (indented; copied exact) and the headers it was sent with; rotate the signing secret, see what happened, and expire the old one; move the
// endpoint to another URL and describe it, in place.
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { shoot, signIn, signUp, startReceiver, type Account } from "./support";

test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const owner: Account = {
  organisation: `Hooks Lender ${run}`,
  email: `hooks-${run}@hooks.test`,
  password: "a long enough password",
};
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let secret = "";

test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(() => receiver.close());

test("a delivery is found by its webhook-id, with the exact body that was signed", async ({ page }) => {
  await signUp(page, owner);
  await page.goto("/webhooks");
  await page.getByLabel("Endpoint URL").fill(receiver.url);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  secret = (await page.getByTestId("secret-value").textContent())!.trim();
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThan(0);
  const { headers, body } = receiver.received[0]!;
  new Webhook(secret).verify(body, headers as Record<string, string>);
  const webhookId = headers["webhook-id"] as string;

  await page.getByRole("link", { name: "Search deliveries" }).click();
  await page.getByLabel("webhook-id or property id").fill(webhookId);
  await page.getByRole("button", { name: "Filter" }).click();
  const delivery = page.getByTestId("delivery");
  await expect(delivery).toHaveCount(1);
  await expect(delivery.getByTestId("webhook-id")).toHaveText(webhookId);
  await expect(delivery).toContainText("webhook.test");
  await delivery.getByText("Payload and attempts").click();
  // Indented for reading; Copy body gives byte for byte what the receiver got.
  const shown = (await delivery.getByTestId("payload").textContent())!;
  expect(shown).toBe(JSON.stringify(JSON.parse(body), null, 2));
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await delivery.getByRole("button", { name: "Copy body" }).click();
  await expect(delivery.getByRole("button", { name: "Copied" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(body);
  // The attempt's headers as shown are the ones sent: with the copied body they verify.
  const sentWith = delivery.getByTestId("attempt-headers").first();
  const names = await sentWith.locator("dt").allTextContents();
  const values = await sentWith.locator("dd").allTextContents();
  const shownHeaders = Object.fromEntries(names.map((name, i) => [name, values[i]!]));
  expect(shownHeaders).toEqual({
    "webhook-id": webhookId,
    "webhook-timestamp": headers["webhook-timestamp"],
    "webhook-signature": headers["webhook-signature"],
  });
  new Webhook(secret).verify(copied, shownHeaders);
  await shoot(page, "webhook-deliveries");

  await page.getByLabel("Status").selectOption("failed");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No deliveries match")).toBeVisible();
});

test("rotating the secret says what happened; the old secret can be expired at once", async ({ page }) => {
  await signIn(page, owner.email, owner.password);
  await page.goto("/webhooks");
  await page.getByRole("link", { name: receiver.url }).click();
  await expect(page.getByRole("heading", { name: "Webhook endpoint" })).toBeVisible();
  await expect(page.getByTestId("endpoint-stats")).toContainText("1 ok");
  // A rotation asks first, saying what happens to the current secret, with a choice of overlap.
  await page.getByRole("button", { name: "Rotate secret…" }).click();
  const confirm = page.getByRole("form", { name: "Rotate secret" });
  await expect(confirm).toContainText("A new secret signs every delivery from now on");
  await expect(confirm.getByLabel("The current secret keeps signing beside the new one")).toHaveValue("24h");
  await shoot(page, "webhook-endpoint-rotate-confirm");
  await confirm.getByRole("button", { name: "Confirm rotation" }).click();
  await expect(page.getByText("Secret rotated.")).toBeVisible();
  await page.getByRole("button", { name: "Reveal signing secret" }).click();
  await expect(page.getByTestId("signing-secret")).toHaveCount(2);
  await expect(page.getByTestId("signing-secret").nth(1)).toHaveText(secret);
  const rotated = (await page.getByTestId("signing-secret").first().textContent())!;
  await shoot(page, "webhook-endpoint-rotated");
  // The receiver still runs on the deployed secret: deliveries in the overlap verify with it.
  const sent = receiver.received.length;
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThan(sent);
  const during = receiver.received.at(-1)!;
  new Webhook(secret).verify(during.body, during.headers as Record<string, string>);
  new Webhook(rotated).verify(during.body, during.headers as Record<string, string>);
  // A second rotation inside the overlap would retire the deployed secret: not without confirming it.
  await page.getByRole("button", { name: "Rotate secret…" }).click();
  await expect(confirm).toContainText("An earlier rotation is still in its overlap");
  await expect(confirm.getByRole("button", { name: "Confirm rotation" })).toBeDisabled();
  await confirm.getByRole("checkbox").check();
  await expect(confirm.getByRole("button", { name: "Confirm rotation" })).toBeEnabled();
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);

  await page.getByRole("button", { name: "Expire old secret now" }).click();
  await expect(page.getByText("Old secret expired")).toBeVisible();
  await page.reload();
  await page.getByRole("button", { name: "Reveal signing secret" }).click();
  await expect(page.getByTestId("signing-secret")).toHaveCount(1);
  await expect(page.getByTestId("signing-secret")).toHaveText(rotated);
  // Deliveries are signed with the new secret alone now.
  const before = receiver.received.length;
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThan(before);
  const last = receiver.received.at(-1)!;
  expect((last.headers["webhook-signature"] as string).split(" ")).toHaveLength(1);
  new Webhook(rotated).verify(last.body, last.headers as Record<string, string>);
});

test("an endpoint's URL and description are edited in place, kept after a reload, and used", async ({ page }) => {
  await signIn(page, owner.email, owner.password);
  await page.goto("/webhooks");
  await page.getByRole("link", { name: receiver.url }).click();
  await expect(page.getByRole("heading", { name: "Webhook endpoint" })).toBeVisible();
  const form = page.getByRole("form", { name: "Edit endpoint" });
  const moved = `${receiver.url}/moved`;
  await form.getByLabel("URL").fill(moved);
  await form.getByLabel("Description").fill("Loan servicing receiver");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(form.getByLabel("URL")).toHaveValue(moved);
  await expect(form.getByLabel("Description")).toHaveValue("Loan servicing receiver");
  await expect(page.getByText(moved, { exact: true })).toBeVisible();

  // A URL the API refuses is refused here with the API's words, and changes nothing.
  await form.getByLabel("URL").fill("ftp://hooks.example.com/finca");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByTestId("form-error")).toContainText("url: The URL");
  await expect(form.getByLabel("URL")).toHaveValue("ftp://hooks.example.com/finca");
  await shoot(page, "webhook-endpoint-edit");
  await page.reload();
  await expect(form.getByLabel("URL")).toHaveValue(moved);

  // The next delivery goes to the new URL.
  const before = receiver.received.length;
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThan(before);
  expect(receiver.received.at(-1)!.path).toBe("/finca/moved");
});
