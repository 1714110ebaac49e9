import { describe, expect, it } from "vitest";
import { readCapped } from "./read-capped";

const bytes = (n: number, fill = 120) => new Uint8Array(n).fill(fill);
/** Plain numbers, so that a Buffer and a Uint8Array of the same bytes compare equal. */
const read = async (message: { body: ReadableStream<Uint8Array> | null }, max: number) => {
  const result = await readCapped(message, max);
  return result && [...result];
};

/** A stream of `chunk`-byte chunks, endless unless `total` is given; counts pulls and cancels. */
function stream(chunk: number, total = Infinity) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled * chunk >= total) return controller.close();
      seen.pulled++;
      controller.enqueue(bytes(chunk));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { body, seen };
}

describe("readCapped", () => {
  it("returns every byte of a body up to the cap, across chunks", async () => {
    const { body, seen } = stream(4, 10 * 4);
    expect(await read({ body }, 40)).toEqual([...bytes(40)]);
    expect(seen.cancelled).toBe(false);
    expect(await read(new Response("héllo"), 100)).toEqual([...new TextEncoder().encode("héllo")]);
  });

  it("is null one byte over the cap", async () => {
    expect(await readCapped(new Response(bytes(41)), 40)).toBeNull();
    expect(await readCapped(new Request("http://127.0.0.1/", { method: "POST", body: bytes(41) }), 40)).toBeNull();
  });

  it("stops reading an endless body at the cap and cancels it", async () => {
    const { body, seen } = stream(1024);
    expect(await readCapped({ body }, 10_000)).toBeNull();
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThan(20);
  });

  it("reads no body as empty", async () => {
    expect(await read(new Response(null), 10)).toEqual([]);
    expect(await read(new Request("http://127.0.0.1/"), 10)).toEqual([]);
  });
});
