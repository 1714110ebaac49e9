// An event's stored payload is read through its type's schema: members in the contract's order (jsonb
// reorders them), and a payload off the schema is refused, naming the event, rather than sent.
import { describe, expect, it } from "vitest";
import { emptyCounts } from "@/lib/domain";
import { wirePayload, type EventRow } from "./events";

const at = new Date("2026-11-28T00:00:00.000Z");
const batch = {
  batch_id: "0b0c2d4e-8f00-4a4a-9b9b-0123456789ab",
  name: "Mortgage book",
  status: "completed",
  counts: emptyCounts(3),
  created_at: at.toISOString(),
  started_at: at.toISOString(),
  completed_at: at.toISOString(),
};
const event = (type: string, payload: Record<string, unknown>): EventRow => ({
  id: "5f0c2d4e-8f00-4a4a-9b9b-0123456789ab",
  partnerId: "6f0c2d4e-8f00-4a4a-9b9b-0123456789ab",
  mode: "test",
  type,
  propertyId: null,
  payload,
  createdAt: at,
});
// As jsonb gives it back: shorter keys first.
const reordered = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.length - b.length || a.localeCompare(b)));

describe("wirePayload", () => {
  it("sends the data in the schema's order", () => {
    const body = JSON.parse(wirePayload(event("batch.completed", reordered(batch))));
    expect(body).toEqual({ type: "batch.completed", timestamp: at.toISOString(), data: batch });
    expect(Object.keys(body.data)).toEqual(Object.keys(batch));
  });

  it("refuses a stored payload off its schema, naming the event", () => {
    expect(() => wirePayload(event("batch.completed", { ...batch, status: "lost" }))).toThrow(
      /^event 5f0c2d4e-8f00-4a4a-9b9b-0123456789ab \(batch\.completed\): its stored payload is not the contract's/,
    );
    expect(() => wirePayload(event("batch.completed", { ...batch, counts: undefined }))).toThrow(/counts/);
  });

  it("sends a test event's free-form data as stored", () => {
    const body = JSON.parse(wirePayload(event("webhook.test", { message: "hello" })));
    expect(body.data).toEqual({ message: "hello" });
  });
});
