import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { signatureHeader, webhookHeaders } from "./sign";
import { generateSecret } from "./secrets";

describe("Standard Webhooks signatures", () => {
  it("matches the specification's test vector", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const header = signatureHeader(
      [secret],
      "msg_p5jXN8AQM9LWM0D4loKWxJek",
      new Date(1614265330 * 1000),
      '{"test": 2432232314}',
    );
    expect(header).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("verifies with the reference verifier on the raw body; a changed body fails", () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ type: "property.enriched", data: { a: 1 } });
    const headers = webhookHeaders([secret], "msg_1", new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual({ type: "property.enriched", data: { a: 1 } });
    expect(() => new Webhook(secret).verify(body.replace("1", "2"), headers)).toThrow();
  });

  it("during rotation signs with both secrets, each of which verifies", () => {
    const [oldSecret, newSecret] = [generateSecret(), generateSecret()];
    const body = "{}";
    const headers = webhookHeaders([newSecret, oldSecret], "msg_2", new Date(), body);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newSecret).verify(body, headers)).not.toThrow();
  });
});
