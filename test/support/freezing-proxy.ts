// A TCP proxy in front of a server that can freeze: while frozen it accepts connections and takes
// what clients send, but forwards nothing either way, like a server that hangs or a network that
// silently drops packets. Thawing delivers what was held.
import net from "node:net";

export interface FreezingProxy {
  port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function createFreezingProxy(host: string, port: number): Promise<FreezingProxy> {
  let frozen = false;
  let accepted = 0;
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket; held: Buffer[] }>();
  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(port, host);
    const pair = { client, upstream, held: [] as Buffer[] };
    pairs.add(pair);
    client.on("data", (data) => (frozen ? pair.held.push(data) : upstream.write(data)));
    upstream.on("data", (data) => client.write(data));
    if (frozen) upstream.pause();
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) socket.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get accepted() {
      return accepted;
    },
    freeze() {
      frozen = true;
      for (const { upstream } of pairs) upstream.pause();
    },
    thaw() {
      frozen = false;
      for (const pair of pairs) {
        for (const data of pair.held.splice(0)) pair.upstream.write(data);
        pair.upstream.resume();
      }
    },
    async close() {
      for (const { client, upstream } of pairs) client.destroy(), upstream.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
