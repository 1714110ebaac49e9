// Reading a request or response body with a size cap, for bodies from outside (partner requests,
// register answers): stops and cancels the stream at the cap instead of buffering all of it.

/** The body's bytes, or null when it is larger than `max` bytes. */
export async function readCapped(
  message: { body: ReadableStream<Uint8Array> | null },
  max: number,
): Promise<Uint8Array | null> {
  if (!message.body) return new Uint8Array();
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** A body's chunks as they arrive; stopping early (break, throw) cancels the stream. */
export async function* chunksOf(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return void (done = true);
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
