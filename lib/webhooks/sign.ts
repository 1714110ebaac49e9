// Standard Webhooks signatures: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the
// secret's bytes, several space-separated while a rotated secret is still valid.
import { Webhook } from "standardwebhooks";

export function signatureHeader(secrets: string[], messageId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(" ");
}

/** The headers of a signed request (a type, not an interface: it is also a plain record of strings). */
export type WebhookHeaders = {
  "content-type": string;
  "user-agent": string;
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

export function webhookHeaders(secrets: string[], messageId: string, timestamp: Date, body: string): WebhookHeaders {
  return {
    "content-type": "application/json",
    "user-agent": "Finca-Webhooks/1.0",
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": signatureHeader(secrets, messageId, timestamp, body),
  };
}
