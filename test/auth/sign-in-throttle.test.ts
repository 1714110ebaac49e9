// Sign-in throttling: atomic under concurrency, slowing down rather than locking the owner out (a
// browser that signed in before is throttled on its own failures only), per client address only
// behind a trusted proxy, and a process-wide cap on password checks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCredentials, signUp } from "@/lib/auth/accounts";
import { directPasswords, gatedPasswords, type Passwords } from "@/lib/auth/password";
import {
  clientAddress,
  FRONT_DOOR,
  requestAddress,
  delayAfter,
  FREE_FAILURES_PER_EMAIL,
  MAX_DELAY_MS,
  MAX_FAILURES_PER_ADDRESS,
} from "@/lib/auth/throttle";
import { cookieValue, knownDevice, newDeviceCookie } from "@/lib/auth/device";
import { DomainError } from "@/lib/domain";
import { createTestApp, type TestApp } from "../support/app";
import { fakeSources } from "../support/fake-sources";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sources: fakeSources() });
});
afterAll(() => t.close());

const counting = () => {
  const counter: { checks: number; passwords: Passwords } = {
    checks: 0,
    passwords: { hash: directPasswords.hash, verify: (h, p) => (counter.checks++, directPasswords.verify(h, p)) },
  };
  return counter;
};
const account = async (tag: string) =>
  signUp(t.app, {
    organisation: `Throttle ${tag} ${Date.now()}`,
    email: `${tag}-${Date.now()}@example.test`,
    password: "the-right-password",
  });

it(`60 concurrent wrong guesses get at most ${FREE_FAILURES_PER_EMAIL} password checks`, async () => {
  const user = await account("burst");
  const counter = counting();
  const now = new Date();
  const results = await Promise.all(
    Array.from({ length: 60 }, () =>
      checkCredentials({ db: t.app.db, passwords: counter.passwords }, user.email, "wrong", { address: null }, now),
    ),
  );
  expect(counter.checks).toBeLessThanOrEqual(FREE_FAILURES_PER_EMAIL);
  expect(results.filter((r) => r.ok === false && r.reason === "throttled").length).toBeGreaterThanOrEqual(
    60 - FREE_FAILURES_PER_EMAIL,
  );
});

it("after repeated failures the owner is slowed down, not locked out for the window", async () => {
  const user = await account("owner");
  const start = Date.now();
  const at = (ms: number) => new Date(start + ms);
  for (let i = 0; i < FREE_FAILURES_PER_EMAIL; i++)
    expect(await checkCredentials(t.app, user.email, "wrong", { address: null }, at(i))).toEqual({
      ok: false,
      reason: "invalid",
    });
  // Right away even the right password waits (the guesses' wait applies to everyone)…
  const refused = await checkCredentials(
    t.app,
    user.email,
    "the-right-password",
    { address: null },
    at(FREE_FAILURES_PER_EMAIL),
  );
  expect(refused).toMatchObject({ ok: false, reason: "throttled" });
  expect((refused as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(delayAfter(FREE_FAILURES_PER_EMAIL));
  // …but only for a second, not fifteen minutes; the refused attempt did not push the wait out.
  expect(
    await checkCredentials(
      t.app,
      user.email,
      "the-right-password",
      { address: null },
      at(FREE_FAILURES_PER_EMAIL + delayAfter(FREE_FAILURES_PER_EMAIL)),
    ),
  ).toMatchObject({ ok: true });
});

it("a browser that signed in before is not slowed by others' guesses; its own failures slow it alone", async () => {
  const user = await account("device");
  const start = Date.now();
  const at = (ms: number) => new Date(start + ms);
  const secret = "device-test-secret";
  // The owner's browser signed in once: it holds the account's device cookie.
  const device = knownDevice(secret, newDeviceCookie(secret, user.email), user.email)!;
  expect(device).toMatch(/^[\w-]{22}$/);
  // An attacker polls with wrong passwords (no cookie): 30 guesses, most of them refused by the wait.
  let refused = 0;
  for (let i = 0; i < 30; i++) {
    const guess = await checkCredentials(t.app, user.email, "wrong", { address: null }, at(i * 1000));
    if (guess.ok === false && guess.reason === "throttled") refused++;
  }
  expect(refused).toBeGreaterThan(20);
  // The owner, with the right password from the known browser, signs in every time (30 to 33 s)…
  for (let i = 0; i < 4; i++)
    expect(
      await checkCredentials(t.app, user.email, "the-right-password", { address: null, device }, at(30_000 + i * 1000)),
    ).toMatchObject({ ok: true });
  // …while a client without the cookie is still slowed (its 9th failure, at 19 s, holds it off
  // for 16 s); the owner's successes cleared nothing of theirs.
  expect(await checkCredentials(t.app, user.email, "the-right-password", { address: null }, at(34_000))).toMatchObject({
    ok: false,
    reason: "throttled",
  });
  // A known browser guessing wrong slows itself down, as any client does.
  for (let i = 0; i < FREE_FAILURES_PER_EMAIL; i++)
    await checkCredentials(t.app, user.email, "wrong", { address: null, device }, at(61_000 + i));
  expect(
    await checkCredentials(t.app, user.email, "the-right-password", { address: null, device }, at(61_000 + 10)),
  ).toMatchObject({ ok: false, reason: "throttled" });
});

describe("device cookies", () => {
  const secret = "s3cret";
  it("name one account, signed: another account, another secret or a changed byte is no device", () => {
    const cookie = newDeviceCookie(secret, "owner@example.test");
    expect(knownDevice(secret, cookie, "owner@example.test")).toMatch(/^[\w-]{22}$/);
    expect(knownDevice(secret, cookie, "other@example.test")).toBeNull();
    expect(knownDevice("other secret", cookie, "owner@example.test")).toBeNull();
    const [payload, signature] = cookie.split(".");
    const forged = Buffer.from(JSON.stringify({ e: "other@example.test", n: "a".repeat(22) })).toString("base64url");
    expect(knownDevice(secret, `${forged}.${signature}`, "other@example.test")).toBeNull();
    expect(knownDevice(secret, `${payload}.${signature!.slice(1)}x`, "owner@example.test")).toBeNull();
    for (const junk of [null, "", "a.b.c", "...", "x"])
      expect(knownDevice(secret, junk, "owner@example.test")).toBeNull();
    expect(newDeviceCookie(secret, "owner@example.test")).not.toBe(cookie);
  });
  it("are read from a Cookie header by name", () => {
    expect(cookieValue("a=1; finca_device=abc.def; b=2", "finca_device")).toBe("abc.def");
    expect(cookieValue("xfinca_device=1", "finca_device")).toBeNull();
    expect(cookieValue(null, "finca_device")).toBeNull();
  });
});

it("the wait grows with each failure and is capped", () => {
  expect(delayAfter(FREE_FAILURES_PER_EMAIL - 1)).toBe(0);
  expect(delayAfter(FREE_FAILURES_PER_EMAIL + 1)).toBe(2 * delayAfter(FREE_FAILURES_PER_EMAIL));
  expect(delayAfter(1000)).toBe(MAX_DELAY_MS);
});

it(`a client address that keeps failing is refused after ${MAX_FAILURES_PER_ADDRESS} failures, whatever the email`, async () => {
  const now = new Date();
  for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++)
    expect(
      await checkCredentials(t.app, `spray-${i}@example.test`, "wrong", { address: "198.51.100.7" }, now),
    ).toMatchObject({
      reason: "invalid",
    });
  expect(
    await checkCredentials(t.app, "spray-last@example.test", "wrong", { address: "198.51.100.7" }, now),
  ).toMatchObject({
    reason: "throttled",
  });
  expect(
    await checkCredentials(t.app, "spray-last@example.test", "wrong", { address: "198.51.100.8" }, now),
  ).toMatchObject({
    reason: "invalid",
  });
});

describe("requestAddress", () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);
  it("is the socket's address when the front door vouches for it with this process's token", () => {
    const sent = { [FRONT_DOOR.address]: "203.0.113.9", [FRONT_DOOR.token]: "t0ken" };
    expect(requestAddress(headers(sent), 0, "t0ken")).toBe("203.0.113.9");
    expect(requestAddress(headers(sent), 0, "another")).toBeNull(); // a client's forgery, or another process's
    expect(requestAddress(headers(sent), 0, undefined)).toBeNull(); // `next start` alone: no front door
  });
  it("is the proxies' entry when they are trusted", () => {
    const sent = {
      "x-forwarded-for": "1.2.3.4, 198.51.100.4",
      [FRONT_DOOR.address]: "10.0.0.2",
      [FRONT_DOOR.token]: "t",
    };
    expect(requestAddress(headers(sent), 1, "t")).toBe("198.51.100.4");
  });
});

describe("clientAddress", () => {
  it("ignores X-Forwarded-For unless a trusted proxy is configured", () => {
    expect(clientAddress("203.0.113.1", 0)).toBeNull();
  });
  it("takes the entry our own proxies appended, not what the client wrote", () => {
    expect(clientAddress("1.2.3.4, 203.0.113.1", 1)).toBe("203.0.113.1");
    expect(clientAddress("1.2.3.4, 203.0.113.1, 10.0.0.2", 2)).toBe("203.0.113.1");
    expect(clientAddress("203.0.113.1", 2)).toBeNull();
    expect(clientAddress(null, 1)).toBeNull();
  });
});

it("password checks are capped for the whole process: at most N at once, a bounded queue, then a refusal", async () => {
  let running = 0;
  let peak = 0;
  const release: (() => void)[] = [];
  const slow: Passwords = {
    hash: async () => "",
    verify: () =>
      new Promise<boolean>((resolve) => {
        peak = Math.max(peak, ++running);
        release.push(() => (running--, resolve(false)));
      }),
  };
  const gate = gatedPasswords(2, 3, slow);
  const admitted = Array.from({ length: 5 }, () => gate.verify("h", "p"));
  await expect(gate.verify("h", "p")).rejects.toSatisfy((e) => e instanceof DomainError && e.code === "rate_limited");
  while (release.length || running) {
    release.shift()?.();
    await new Promise((r) => setImmediate(r));
  }
  await Promise.all(admitted);
  expect(peak).toBe(2);
});
