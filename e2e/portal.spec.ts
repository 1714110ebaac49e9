// The portal driven as a partner and an operator would, in Debian's Chromium, against the real
// server (npm start) on PostgreSQL (npm test's, or its own embedded one). Screenshots of every page, at desktop
// and phone widths, go to e2e/screenshots/ (git-ignored) for a person to look at.
import { expect, test, type APIRequestContext } from "@playwright/test";
import http from "node:http";
import { readFileSync } from "node:fs";
import { Webhook } from "standardwebhooks";
import { checkLetters } from "../lib/cadastral-reference";
import { SERVER_LOG } from "./server-log";
import {
  admin,
  fillSignIn,
  grantLiveAccess,
  shoot,
  signIn,
  signUp,
  startReceiver,
  unitRef,
  type Account,
} from "./support";

test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const owner: Account = {
  organisation: `Acme Bank ${run}`,
  email: `owner-${run}@acme.test`,
  password: "correct horse battery",
};
const other: Account = {
  organisation: `Other Insurer ${run}`,
  email: `other-${run}@other.test`,
  password: "another long password",
};
const SLOW = unitRef("2749704YJ0624N", "9100"); // the cadastre answers on the retry: `enriching` first

let apiKey = "";
let liveKey = "";
let propertyId = "";
let secret = "";
let respondWith = 200;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let receiverUrl = "";

const createProperty = (request: APIRequestContext, reference: string) =>
  request.post("/api/v1/partner-api/properties", {
    headers: { "X-API-Key": apiKey },
    data: { cadastral_reference: reference },
  });

test.beforeAll(async () => {
  receiver = await startReceiver(() => respondWith);
  receiverUrl = receiver.url;
});
test.afterAll(() => receiver.close());

test("sign-in and sign-up pages; pages are guarded", async ({ page }) => {
  await page.goto("/keys");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fkeys$/);
  await shoot(page, "sign-in");
  await fillSignIn(page, "nobody@acme.test", "wrong password here");
  await expect(page.getByTestId("form-error")).toContainText("Wrong email or password");
  await expect(page.getByLabel("Email")).toHaveValue("nobody@acme.test"); // kept for the next try
  await page.goto("/sign-up");
  await shoot(page, "sign-up");
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await shoot(page, "not-found");
});

test("sign-in slows down after 5 failures for an email", async ({ page }) => {
  const email = `target-${run}@acme.test`;
  for (let i = 0; i < 5; i++) {
    await page.goto("/sign-in");
    await fillSignIn(page, email, `guess number ${i}`);
    await expect(page.getByTestId("form-error")).toContainText("Wrong email or password");
  }
  // Each further failure doubles the wait (1 s, 2 s, 4 s…): however slow this machine, guesses soon
  // arrive inside it and are refused without a password check.
  for (let i = 5; i < 16; i++) {
    await page.goto("/sign-in");
    await fillSignIn(page, email, `guess number ${i}`);
    const error = page.getByTestId("form-error");
    await expect(error).toContainText(/Wrong email or password|Too many failed attempts/);
    if (/Too many failed attempts\. Wait \d+ seconds/.test((await error.textContent()) ?? "")) return;
  }
  throw new Error("sign-in never slowed down");
});

test("a partner signs up and creates a test key", async ({ page }) => {
  await signUp(page, owner);
  await expect(page.getByText("No test properties yet")).toBeVisible();
  await shoot(page, "overview-empty");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("link", { name: "API keys" })).toHaveAttribute("aria-current", "page");
  await page.getByLabel("Name", { exact: true }).fill("Origination backend");
  await page.getByLabel("Mode", { exact: true }).selectOption("test");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = page.getByTestId("secret-value");
  await expect(key).toContainText("finca_test_");
  apiKey = (await key.textContent())!.trim();
  await expect(page.getByRole("cell", { name: "Origination backend" })).toBeVisible();
  await shoot(page, "keys");
});

test("a property registered through the API reaches enriched in the portal", async ({ page, request }) => {
  await signIn(page, owner.email, owner.password);
  const res = await createProperty(request, SLOW);
  expect(res.status()).toBe(201);
  const body = await res.json();
  expect(body.status).toBe("enriching");
  propertyId = body.property_id;
  await page.goto(`/properties/${propertyId}`);
  await expect(page.getByText("this page updates by itself")).toBeVisible();
  await shoot(page, "property-enriching");
  // No reload: the page refreshes itself until the durable retry finishes the enrichment.
  await expect(page.getByTestId("property-json")).toContainText('"status": "enriched"');
  await expect(page.getByText("this page updates by itself")).toHaveCount(0);
  const attempts = page.getByRole("region", { name: "Enrichment attempts" });
  await expect(attempts.getByRole("row").filter({ hasText: "Cadastre #2" })).toContainText("completed");
  await expect(attempts.getByRole("row").filter({ hasText: "Cadastre #1" })).toContainText("timeout");
  await shoot(page, "property-enriched");
});

test("properties: search, filters, and registering from the portal under the API's rules", async ({ page }) => {
  await signIn(page, owner.email, owner.password);
  await page.goto("/properties");
  await expect(page.getByRole("link", { name: SLOW })).toBeVisible();
  await page.getByLabel("Status").selectOption("not_found");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No properties match")).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).click();
  // The filter form is rebuilt by the navigation: wait for it, or the search lands in the old form.
  await expect(page).toHaveURL(/\/properties$/);
  await expect(page.getByLabel("Status")).toHaveValue("");
  // A reference typed with a space, a hyphen and in lower case is found as a create would read it.
  await page.getByLabel("Search").fill(`${SLOW.slice(0, 7)} ${SLOW.slice(7, 14)}-${SLOW.slice(14)}`.toLowerCase());
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("link", { name: SLOW })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  const lines = readFileSync((await download.path())!, "utf8")
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  expect(lines[0]).toMatch(/^property_id,cadastral_reference,status,/);
  expect(lines.slice(1).map((l) => l.split(",")[1])).toEqual([SLOW]);

  await page.goto("/properties");
  await page.getByLabel("Cadastral reference").fill("12345");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByTestId("form-error")).toHaveText(
    'The cadastral reference "12345" must be 14 (parcel) or 20 (unit) characters after removing spaces and hyphens.',
  );
  await shoot(page, "properties");
  // Spaces, hyphens and lower case are normalised, as in the API; the property page opens.
  const parcel = "9872023VH5797S";
  await page
    .getByLabel("Cadastral reference")
    .fill(`${parcel.slice(0, 7)}-${parcel.slice(7)} 0001 ${checkLetters(parcel + "0001")}`.toLowerCase());
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/properties\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: `${parcel}0001${checkLetters(parcel + "0001")}` })).toBeVisible();
});

test("crafted input gets a page or a clear refusal, never a 500", async ({ page, request }) => {
  await signIn(page, owner.email, owner.password);
  for (const path of [
    "/properties?from=2024-13-45",
    "/properties?to=9999-99-99",
    `/properties?after=${"-".repeat(36)}`,
    "/properties?q=%00",
    "/properties?q=a&q=b&status=x&status=y",
    // Days that exist but no date column holds (year 0000; 9999-12-31's next day is year 10000).
    "/properties?from=0000-01-01&to=9999-12-31",
    "/logs?from=0000-01-01&to=9999-12-31",
    "/webhooks/deliveries?from=0000-01-01&to=9999-12-31",
    "/invite/%E0%A4%A",
    "/properties/%E0%A4%A",
  ]) {
    const res = await page.goto(path);
    expect(res!.status(), path).toBeLessThan(500);
  }
  const framed = await request.get("/sign-in");
  expect(framed.headers()["x-frame-options"]).toBe("DENY");
  expect(framed.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  // The portal refuses what the API refuses (it validates with the API's own request schema).
  await page.goto("/webhooks");
  await page.getByLabel("Endpoint URL").fill("https://user:secret@hooks.example.com/x");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("form-error")).toContainText("must not contain credentials");
});

test("a webhook endpoint receives a signed test event, seen as delivered", async ({ page }) => {
  await signIn(page, owner.email, owner.password);
  await page.goto("/webhooks");
  await expect(page.getByText("No test endpoints")).toBeVisible();
  await page.getByLabel("Endpoint URL").fill(receiverUrl);
  await page.getByLabel("Description").fill("e2e receiver");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("secret-value")).toContainText("whsec_");
  secret = (await page.getByTestId("secret-value").textContent())!.trim();
  receiver.received.length = 0;
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => receiver.received.length).toBeGreaterThan(0);
  const event = new Webhook(secret).verify(
    receiver.received[0]!.body,
    receiver.received[0]!.headers as Record<string, string>,
  ) as { type: string };
  expect(event.type).toBe("webhook.test");
  // The page follows the delivery by itself while it is in progress.
  await expect(
    page.getByTestId("delivery").filter({ hasText: "webhook.test" }).filter({ hasText: "succeeded" }),
  ).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Reveal signing secret" }).click();
  await expect(page.getByTestId("signing-secret")).toHaveText(secret);
  await page.getByText("Payload and attempts").first().click();
  await expect(page.getByText("HTTP 200").first()).toBeVisible();
  await shoot(page, "webhooks");
});

test("the overview shows status split, per-source success and deliveries", async ({ page, request }) => {
  // Scenario references: a source failing for good (9300), a retried one (9200), an unknown reference (9404).
  const refs = ["9300", "9200", "9404", "0002", "0003"].map((unit) => unitRef("4520109VK4742B", unit));
  for (const ref of refs) expect((await createProperty(request, ref)).ok()).toBe(true);
  await expect
    .poll(
      async () =>
        (
          await (
            await request.get("/api/v1/partner-api/properties?status=enriching", { headers: { "X-API-Key": apiKey } })
          ).json()
        ).data.length,
    )
    .toBe(0);
  // Each property that finished after its response announced itself to the endpoint.
  await expect
    .poll(() => receiver.received.filter((r) => r.body.includes('"property.enriched"')).length)
    .toBeGreaterThanOrEqual(2);
  await signIn(page, owner.email, owner.password);
  await expect(
    page.getByRole("img", {
      name: /Properties by status: enriching 0, enriched \d+, partially enriched 1, not found 1/,
    }),
  ).toBeVisible();
  await expect(page.getByText(/gave up after retries/).first()).toBeVisible();
  await shoot(page, "overview");
  // Without live access the portal offers no live mode: the switch's "live" leads to the request form.
  await page.getByRole("link", { name: "live: request live access" }).click();
  await expect(page.getByTestId("live-access")).toBeVisible();
  await expect(page.getByRole("button", { name: "test" })).toHaveAttribute("aria-pressed", "true");
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Properties by status" })).toBeVisible();
  // A delivery names its property by the reference the partner knows, linked to its page.
  await page.goto("/webhooks/deliveries");
  const enriched = page.getByTestId("delivery").filter({ hasText: "property.enriched" }).first();
  const property = enriched.getByTestId("delivery-property").getByRole("link");
  await expect(property).toHaveText(new RegExp(`^(${refs.join("|")})$`));
  const reference = (await property.textContent())!;
  await property.click();
  await expect(page.getByRole("heading", { name: reference })).toBeVisible();
});

test("an admin replays a failed delivery", async ({ page }) => {
  // A failing receiver: the test event fails its three attempts (compressed test schedule).
  respondWith = 500;
  await signIn(page, owner.email, owner.password);
  await page.goto("/webhooks");
  receiver.received.length = 0;
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(3);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  respondWith = 200;
  await signIn(page, admin.email, admin.password);
  await page.goto("/admin/webhooks");
  const row = page
    .getByTestId("admin-delivery")
    .filter({ hasText: owner.organisation })
    .filter({ hasText: "failed" })
    .first();
  await expect
    .poll(async () => {
      await page.reload();
      return row.count();
    })
    .toBeGreaterThan(0);
  await shoot(page, "admin-webhooks");
  const before = receiver.received.length;
  await row.getByRole("button", { name: "Replay" }).click();
  await expect.poll(() => receiver.received.length).toBeGreaterThan(before);
  const ids = new Set(receiver.received.slice(-2).map((r) => r.headers["webhook-id"]));
  expect(ids.size).toBe(1); // the replay kept the webhook-id

  await page.goto("/admin");
  await expect(page.getByText("Rate limit usage")).toBeVisible();
  await shoot(page, "admin");
  await page.goto("/admin/users");
  await expect(page.getByRole("cell", { name: owner.organisation }).first()).toBeVisible();
  await expect(page.getByRole("cell", { name: owner.email })).toBeVisible();
  await shoot(page, "admin-users");
  await page.goto("/admin/keys");
  await page.getByLabel("Visible start").fill(apiKey.slice(0, 15));
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("cell", { name: owner.organisation }).first()).toBeVisible();
  await shoot(page, "admin-keys");
  // An admin has no partner pages; a partner has no admin pages.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/admin$/);
});

test("an admin disables a user (their session ends at once) and enables them again", async ({ page, browser }) => {
  const user: Account = {
    organisation: `Disabled Org ${Date.now()}`,
    email: `disabled-${Date.now()}@example.com`,
    password: "correct horse battery",
  };
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  try {
    await signUp(them, user);
    await signIn(page, admin.email, admin.password);
    await page.goto("/admin/users");
    const row = page.getByRole("row").filter({ hasText: user.email });
    await row.getByRole("button", { name: "Disable" }).click();
    await expect(row.getByRole("button", { name: "Enable" })).toBeVisible();
    await them.goto("/dashboard");
    await expect(them).toHaveURL(/\/sign-in/);
    await row.getByRole("button", { name: "Enable" }).click();
    await expect(row.getByRole("button", { name: "Disable" })).toBeVisible();
    await signIn(them, user.email, user.password);
  } finally {
    await theirs.close();
  }
});

test("an admin refreshes a register dataset and sees it in the coverage", async ({ page }) => {
  // scripts/e2e-server.mjs configures La Rioja's dataset at this address (E2E_PORT + 1).
  const registerFile = http.createServer((req, res) => {
    res.writeHead(req.url === "/rio-larioja.csv" ? 200 : 404, { "Content-Type": "text/csv" });
    res.end(req.url === "/rio-larioja.csv" ? readFileSync("lib/registers/datasets/fixtures/rio-larioja.csv") : "");
  });
  await new Promise<void>((r) => registerFile.listen(Number(process.env.E2E_PORT ?? 3217) + 1, "127.0.0.1", r));
  try {
    await signIn(page, admin.email, admin.password);
    await page.goto("/admin/registers");
    const row = page.getByTestId("register-dataset").filter({ hasText: "rio-larioja" });
    await expect(row.getByText("not imported")).toBeVisible();
    await expect(
      page.getByTestId("register-dataset").filter({ hasText: "can-gobcan" }).getByText("no URL configured"),
    ).toBeVisible();
    // Operators see how far each format rests on evidence, with citations, and what part a city's dataset covers.
    await expect(row.getByText("one source", { exact: true })).toBeVisible();
    await expect(row.getByText(/Crear_tabla_estándar_Rioja\.py: the column names/)).toBeVisible();
    const aragon = page.getByTestId("register-dataset").filter({ hasText: "ara-gaodcore" });
    await expect(aragon.getByText("confirmed", { exact: true })).toBeVisible();
    await expect(
      page
        .getByTestId("register-dataset")
        .filter({ hasText: "mad-ite" })
        .getByText("Madrid city only, matched by the building's street address"),
    ).toBeVisible();
    await row.getByRole("button", { name: "Refresh now" }).click();
    await expect
      .poll(async () => {
        await page.reload();
        return row
          .getByTestId("dataset-rows")
          .textContent({ timeout: 1000 })
          .catch(() => null);
      })
      .toBe("5");
    // What the import left out, by reason, with where.
    const noRating = /^rows without an A-G rating: 1 \(.*line 7 column "CALIF_CONSUMO_NORENOV"\)$/;
    await expect(row.getByTestId("dataset-skips").filter({ hasText: noRating })).toBeVisible();
    const rioja = page.getByTestId("coverage-row").filter({ hasText: "La Rioja" });
    const index = rioja.getByRole("listitem").filter({ hasText: "index:rio-larioja" });
    await expect(index).toBeVisible();
    await expect(index.getByTestId("format-evidence")).toHaveText(/format single source/);
    await shoot(page, "admin-registers");
    await page.goto("/docs#coverage");
    await expect(page.getByTestId("coverage-row")).toHaveCount(19);
    await expect(
      page
        .getByTestId("coverage-row")
        .filter({ hasText: "País Vasco" })
        .getByText(/Foral cadastre/),
    ).toBeVisible();
    await expect(
      page
        .getByTestId("coverage-row")
        .filter({ hasText: "La Rioja" })
        .getByText(/5 rows as of/),
    ).toBeVisible();
    await shoot(page, "docs-coverage");
    // On a phone: one card per community, its three sources in sight (a table would scroll them away).
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId("coverage-table")).toBeHidden();
    await expect(page.getByTestId("coverage-card")).toHaveCount(19);
    const basque = page.getByTestId("coverage-card").filter({ hasText: "País Vasco" });
    await expect(basque.getByText("ITE", { exact: true })).toBeVisible();
    await expect(basque.getByText(/Foral cadastre/)).toBeVisible();
  } finally {
    await new Promise<void>((r) => registerFile.close(() => r()));
  }
});

test("a member of another partner is refused partner A's property", async ({ page }) => {
  await signUp(page, other);
  const res = await page.goto(`/properties/${propertyId}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByText("Not found in this organisation and mode")).toBeVisible();
  await expect(page.getByText(SLOW)).toHaveCount(0);
  await page.goto("/properties");
  await expect(page.getByText("No test properties yet")).toBeVisible();
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("a signed-out visitor is sent to sign-in and back to the page they asked for", async ({ page }) => {
  await page.goto(`/properties/${propertyId}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await fillSignIn(page, owner.email, owner.password);
  await expect(page).toHaveURL(new RegExp(`/properties/${propertyId}$`));
});

test("after sign-in, only a path on this site is followed", async ({ page }) => {
  for (const next of [
    "/..//evil.example/x",
    "/.//evil.example/x",
    "/\t/evil.example/x",
    "//evil.example/x",
    "/\\evil.example",
  ]) {
    await page.context().clearCookies();
    await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await fillSignIn(page, owner.email, owner.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(new URL(page.url()).host, next).toBe(new URL(test.info().project.use.baseURL!).host);
  }
});

test("signing out ends every copy of the session", async ({ page, browser }) => {
  await signIn(page, owner.email, owner.password);
  const copy = await browser.newContext({ storageState: await page.context().storageState() });
  const thief = await copy.newPage();
  await thief.goto("/keys");
  await expect(thief).toHaveURL(/\/keys$/);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await thief.goto("/keys");
  await expect(thief).toHaveURL(/\/sign-in/);
  await copy.close();
});

test("a user sees their sessions, ends another browser's, and a sign-out ends this one only", async ({
  page,
  browser,
}) => {
  const user: Account = {
    organisation: `Sessions Org ${Date.now()}`,
    email: `sessions-${Date.now()}@example.com`,
    password: "correct horse battery",
  };
  await signUp(page, user);
  const elsewhere = await browser.newContext({
    userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0",
  });
  const other = await elsewhere.newPage();
  try {
    await signIn(other, user.email, user.password);
    await page.goto("/account");
    const sessions = page.getByTestId("session");
    await expect(sessions).toHaveCount(2);
    await expect(sessions.filter({ hasText: "This browser" })).toHaveCount(1);
    const firefox = sessions.filter({ hasText: "Firefox 132 on Linux" });
    await expect(firefox).toContainText("127.0.0.1");
    await firefox.getByRole("button", { name: "End" }).click();
    await expect(sessions).toHaveCount(1);
    await other.goto("/dashboard");
    await expect(other).toHaveURL(/\/sign-in/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);

    // Signed in there again: signing out there leaves this browser signed in.
    await signIn(other, user.email, user.password);
    await other.getByRole("button", { name: "Sign out" }).click();
    await expect(other).toHaveURL(/\/sign-in/);
    await page.goto("/keys");
    await expect(page).toHaveURL(/\/keys$/);

    // And all others at once.
    await signIn(other, user.email, user.password);
    await page.goto("/account");
    await expect(sessions).toHaveCount(2);
    await page.getByRole("button", { name: "End all other sessions" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("End your 1 other session?");
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect(sessions).toHaveCount(1);
    await other.goto("/dashboard");
    await expect(other).toHaveURL(/\/sign-in/);
  } finally {
    await elsewhere.close();
  }
});

test("the security history: an owner sees their organisation's, an operator everyone's", async ({ page }) => {
  await signIn(page, owner.email, owner.password);
  await page.goto("/team");
  await page.getByRole("link", { name: "Activity" }).click();
  await expect(page).toHaveURL(/\/team\/activity$/);
  const rows = page.getByTestId("activity-row");
  await expect(rows.filter({ hasText: "sign_in.succeeded" }).first()).toContainText(owner.email);
  await expect(rows.filter({ hasText: "sign_in.succeeded" }).first()).toContainText("127.0.0.1");
  await expect(rows.filter({ hasText: "api_key.created" }).first()).toBeVisible();
  await page.getByLabel("What").selectOption("api_key");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/area=api_key/);
  await expect(rows.first()).toBeVisible();
  for (const text of await rows.allTextContents()) expect(text).toContain("api_key.");
  // Never a key or a secret in it: keys by their visible start.
  expect(await page.getByTestId("activity").textContent()).not.toMatch(/finca_(test|live)_[A-Za-z0-9]{20,}|whsec_/);
  await page.getByRole("button", { name: "Sign out" }).click();

  await signIn(page, admin.email, admin.password);
  await page.goto("/admin/activity");
  await expect(page.getByTestId("activity-row").filter({ hasText: owner.organisation }).first()).toBeVisible();
});

test("an owner invites a viewer, who joins, reads and is refused keys until made a developer", async ({
  page,
  browser,
}) => {
  await signIn(page, owner.email, owner.password);
  await page.goto("/team");
  await page.locator("#invite-role").selectOption("viewer");
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = (await page.getByTestId("secret-value").textContent())!;
  await page.reload();
  await expect(page.getByRole("region", { name: "Pending invitations" })).toContainText("anyone with the link");
  await shoot(page, "team");
  // A context of its own (axe needs one, and the member must not share the owner's cookies).
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await member.goto(link);
  await shoot(member, "invite");
  await member.getByLabel("Email").fill(`member-${run}@acme.test`);
  await member.getByLabel("Password").fill("member password long");
  await member.getByRole("button", { name: "Join" }).click();
  await expect(member).toHaveURL(/\/dashboard$/);
  await member.goto(`/properties/${propertyId}`);
  await expect(member.getByTestId("property-json")).toContainText(propertyId);
  // A viewer reads, and is shown no key, no form to change anything, and a 403 where keys live.
  const nav = member.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Properties" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "API keys" })).toHaveCount(0);
  await member.goto("/properties");
  await expect(member.getByRole("button", { name: "Register" })).toHaveCount(0);
  const refused = await member.goto("/keys");
  expect(refused?.status()).toBe(403);
  await expect(member.getByRole("heading", { name: "Your role does not allow this page" })).toBeVisible();
  await member.goto("/team");
  await expect(member.getByText("Your role is viewer")).toBeVisible();
  // The owner makes the viewer a developer: keys are theirs to see at the next page.
  await page.reload();
  const row = page.getByRole("row").filter({ hasText: `member-${run}@acme.test` });
  await row.getByLabel("Role").selectOption("developer");
  await row.getByRole("button", { name: "Change role" }).click();
  await expect(row.getByText("Saved.")).toBeVisible();
  await member.goto("/keys");
  await expect(member.getByRole("heading", { name: "API keys" })).toBeVisible();
  await member.goto(link);
  await expect(member.getByText("Invitation not valid")).toBeVisible();
  // The owner removes the member; the member's open page is refused at the next click.
  await member.goto("/dashboard");
  await page.reload();
  await page
    .getByRole("row")
    .filter({ hasText: `member-${run}@acme.test` })
    .getByRole("button", { name: "Remove" })
    .click();
  await page
    .getByRole("row")
    .filter({ hasText: `member-${run}@acme.test` })
    .getByRole("button", { name: "Confirm" })
    .click();
  await expect(page.getByRole("row").filter({ hasText: `member-${run}@acme.test` })).toHaveCount(0);
  await member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Properties" }).click();
  await expect(member).toHaveURL(/\/sign-in/);
  await memberContext.close();
  // A withdrawn invitation's link stops working.
  await page.getByLabel("Email").fill(`late-${run}@acme.test`);
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const withdrawn = (await page.getByTestId("secret-value").textContent())!;
  await page.reload();
  const pending = page.getByRole("region", { name: "Pending invitations" });
  await pending
    .getByRole("row")
    .filter({ hasText: `late-${run}@acme.test` })
    .getByRole("button", { name: "Withdraw" })
    .click();
  await pending
    .getByRole("row")
    .filter({ hasText: `late-${run}@acme.test` })
    .getByRole("button", { name: "Confirm" })
    .click();
  await expect(page.getByRole("region", { name: "Pending invitations" })).toHaveCount(0);
  await page.goto(withdrawn);
  await expect(page.getByText("Invitation not valid")).toBeVisible();
});

test("docs render locally", async ({ page }) => {
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: "Integration guide" })).toBeVisible();
  await expect(page.getByText('import { Webhook } from "standardwebhooks"')).toBeVisible();
  // Testing webhooks locally: listen and trigger, with the settings the server runs on.
  const listen = page.locator("#listen");
  await expect(listen.getByRole("heading", { name: "10. Test webhooks on your machine" })).toBeVisible();
  await expect(listen).toContainText("finca trigger property.enriched");
  // The package from this server, with its SHA-256 to check it against (section 8).
  const sdk = page.locator("#sdk");
  await expect(sdk).toContainText(/npm install -g http:\/\/[^ ]+\/sdk\/finca-sdk-\d+\.\d+\.\d+\.tgz/);
  await expect(sdk).toContainText(/its SHA-256 is [0-9a-f]{64}/);
  await expect(listen).toContainText("after 1 h");
  await shoot(page, "docs");
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { name: "API reference" })).toBeVisible();
  await expect(page.locator("#createProperty")).toContainText("/api/v1/partner-api/properties");
  await expect(page.locator("#schema-Property")).toContainText("ite_fetch_status");
  await shoot(page, "docs-api");
  // Every problem's `type` resolves to an anchor here.
  const problem = await (
    await page.request.post("/api/v1/partner-api/properties", {
      headers: { "X-API-Key": apiKey },
      data: { cadastral_reference: "x" },
    })
  ).json();
  await page.goto(problem.type);
  await expect(page.locator(`#${problem.code}`)).toContainText("400");
  await shoot(page, "docs-errors");
});

test("revoking the key makes the API answer 401", async ({ page, request }) => {
  await signIn(page, owner.email, owner.password);
  await page.goto("/keys");
  await page.getByRole("button", { name: "Revoke" }).first().click();
  await expect(page.getByRole("alertdialog")).toContainText("Requests with it are refused at once");
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Revoked and expired keys (1)")).toBeVisible();
  await expect(page.getByText("No active test keys")).toBeVisible();
  const res = await request.get("/api/v1/partner-api/properties", { headers: { "X-API-Key": apiKey } });
  expect(res.status()).toBe(401);
  expect((await res.json()).code).toBe("missing_api_key");
});

test("live creates while Catastro refuses connections open its breaker, seen in the admin console", async ({
  page,
  request,
  browser,
}) => {
  await signIn(page, owner.email, owner.password);
  await grantLiveAccess(page, browser, owner.organisation);
  // With live access, the mode switch goes live: live mode has none of the test data.
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "live" }).click();
  await expect(page.getByText("No live properties yet")).toBeVisible();
  await page.getByRole("button", { name: "test" }).click();
  await expect(page.getByRole("heading", { name: "Properties by status" })).toBeVisible();
  await page.goto("/keys");
  await page.getByLabel("Name", { exact: true }).fill("Live backend");
  await page.getByLabel("Mode", { exact: true }).selectOption("live");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("secret-value")).toContainText("finca_live_");
  liveKey = (await page.getByTestId("secret-value").textContent())!.trim();
  // REGISTER_BREAKER_MIN_REQUESTS (5) failed requests, each a new parcel (answers are cached per reference).
  for (let i = 0; i < 5; i++) {
    const res = await request.post("/api/v1/partner-api/properties", {
      headers: { "X-API-Key": liveKey },
      data: { cadastral_reference: unitRef(`93985${i}6VK3799G`, "0001") },
    });
    expect(res.status()).toBe(201);
  }
  await page.getByRole("button", { name: "Sign out" }).click();
  await signIn(page, admin.email, admin.password);
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Registers" }).click();
  await expect(page.getByRole("heading", { name: "Registers" })).toBeVisible();
  const catastro = page.getByTestId("register").filter({ hasText: "catastro-ovc" });
  await expect(catastro).toContainText("open: not asked");
  await expect(catastro.getByRole("cell").nth(1)).toHaveText(/^[5-9]$/); // attempts in the last hour
  await expect(catastro.getByRole("cell").nth(2)).toHaveText("0 %");
  await expect(catastro).toContainText("network");
  await expect(catastro).toContainText("ECONNREFUSED");
  const icaen = page.getByTestId("register").filter({ hasText: "icaen-socrata" });
  await expect(icaen).toContainText("closed");
  await expect(icaen).toContainText("none");
  await shoot(page, "admin-register-health");
});

// Last: everything above went through the server (sign-ups, sign-ins, key creation, creates, a
// delivery, an admin). Its logs name requests by id and the key by its visible start only.
test("the server's logs hold a line per request, job run, delivery attempt and security change, and no key, secret or password", async () => {
  // The server holds its log lines up to a quarter second before writing them (LOG_BUFFER_BYTES).
  let text = "";
  await expect(() => {
    text = readFileSync(SERVER_LOG, "utf8");
    const lines = text.split("\n").flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
    expect(
      lines.some(
        (l) =>
          l.msg === "request" && l.route === "createProperty" && l.status === 201 && l.keyStart === apiKey.slice(0, 17),
      ),
    ).toBe(true);
    expect(lines.some((l) => l.msg === "job run" && l.queue === "enrich" && l.outcome === "completed")).toBe(true);
    expect(lines.some((l) => l.msg === "webhook delivery attempt" && l.outcome === "succeeded")).toBe(true);
    // The security history's lines, one per committed row.
    const audit = lines.filter((l) => l.msg === "audit").map((l) => l.audit as Record<string, unknown>);
    expect(audit.some((a) => a.action === "api_key.created" && a.actor === owner.email)).toBe(true);
    expect(audit.some((a) => a.action === "sign_in.failed")).toBe(true);
  }).toPass({ timeout: 60_000 });
  for (const secretValue of [
    apiKey,
    liveKey,
    secret,
    secret.replace(/^whsec_/, ""),
    owner.password,
    other.password,
    admin.password,
    "member password long",
  ]) {
    expect(secretValue.length).toBeGreaterThan(8);
    expect(text).not.toContain(secretValue);
  }
});
