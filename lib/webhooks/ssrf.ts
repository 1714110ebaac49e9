// SSRF guard for webhook URLs: refuses private, loopback, link-local, CGNAT, multicast and reserved
// addresses (IPv4, IPv6 and IPv4 embedded in IPv6). Checked on the address actually dialled, via
// the socket's `lookup`, so a hostname that re-resolves to a private address (DNS rebinding) fails.
import dns from "node:dns";
import net from "node:net";

export class SsrfBlockedError extends Error {
  readonly code = "ERR_SSRF_BLOCKED";
}

const V4 = new net.BlockList();
for (const [prefix, bits] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24],
  ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) V4.addSubnet(prefix, bits, "ipv4");

const V6 = new net.BlockList();
for (const [prefix, bits] of [
  ["::", 128], ["::1", 128], ["64:ff9b::", 96], ["64:ff9b:1::", 48], ["100::", 64], ["2001::", 23], ["2001:db8::", 32],
  ["2002::", 16], ["fc00::", 7], ["fe80::", 10], ["fec0::", 10], ["ff00::", 8],
] as const) V6.addSubnet(prefix, bits, "ipv6");

/** The 8 16-bit groups of an IPv6 address (with or without an embedded dotted IPv4 tail). */
function groups(ip: string): number[] {
  let address = ip.split("%")[0]!.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split(".").map(Number) as [number, number, number, number];
    address = address.slice(0, -v4[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = address.split("::") as [string, string | undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

/** An IPv4 address hidden in an IPv6 one: mapped (::ffff:a.b.c.d) or compatible (::a.b.c.d). */
function embeddedV4(ip: string): string | null {
  const g = groups(ip);
  const zeros = g.slice(0, 5).every((x) => x === 0);
  if (!zeros || !(g[5] === 0xffff || (g[5] === 0 && (g[6] ?? 0) !== 0))) return null;
  return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join(".");
}

export function isBlockedAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 4) return V4.check(ip, "ipv4");
  if (family === 6) {
    const v4 = embeddedV4(ip);
    return v4 ? V4.check(v4, "ipv4") : V6.check(ip.split("%")[0]!, "ipv6");
  }
  return true; // not an address at all: refuse rather than guess
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

type LookupCallback = (error: Error | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A `lookup` for http(s).request that refuses blocked addresses at connect time. */
export function guardedLookup(resolver: Resolver = systemResolver, allowPrivate = false) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    resolver(hostname)
      .then((addresses) => {
        if (!addresses.length) throw Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" });
        const blocked = addresses.find((a) => isBlockedAddress(a.address));
        if (blocked && !allowPrivate) throw new SsrfBlockedError(`${hostname} resolves to ${blocked.address}, a private or reserved address`);
        const usable = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
        if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      })
      .catch((error) => callback(error, ""));
  };
}

/** Why a webhook URL is refused at creation, or null when it is acceptable. */
export function urlProblem(raw: string, mode: "test" | "live", allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must use https (or http in test mode)";
  if (mode === "live" && url.protocol !== "https:") return "must use https in live mode";
  if (url.username || url.password) return "must not contain credentials";
  if (!url.hostname) return "must have a host";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate) {
    if (net.isIP(host) && isBlockedAddress(host)) return "points to a private, loopback or reserved address";
    if (/^(localhost|.*\.localhost|.*\.local|.*\.internal)$/i.test(host)) return "points to a local host name";
  }
  return null;
}
