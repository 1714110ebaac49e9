// SSRF guard for what we fetch (webhooks, register downloads): refuses private, loopback,
// link-local, CGNAT, multicast and reserved addresses (IPv4, IPv6 and IPv4 embedded in IPv6).
// Checked on the address actually dialled, via the socket's `lookup`, so a hostname that
// re-resolves to a private address (DNS rebinding) fails.
import dns from "node:dns";
import net from "node:net";

export class SsrfBlockedError extends Error {
  readonly code = "ERR_SSRF_BLOCKED";
}

const V4_BLOCKED = new net.BlockList();
for (const [prefix, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  V4_BLOCKED.addSubnet(prefix, bits, "ipv4");

// IPv6 is an allow-list: only global unicast (2000::/3) can be a partner's server. That alone
// excludes ::/8 (unspecified, loopback, IPv4-compatible), fc00::/7, fe80::/10, fec0::/10, ff00::/8.
const V6_GLOBAL = new net.BlockList();
V6_GLOBAL.addSubnet("2000::", 3, "ipv6");
// Special-purpose blocks inside 2000::/3: IETF protocol assignments (Teredo included),
// documentation, 6to4 (tunnels to arbitrary IPv4), SRv6 segment ids.
const V6_BLOCKED = new net.BlockList();
for (const [prefix, bits] of [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
  ["5f00::", 16],
] as const) {
  V6_BLOCKED.addSubnet(prefix, bits, "ipv6");
}

/** The 8 16-bit groups of a valid IPv6 address (with or without an embedded dotted IPv4 tail). */
function groups(ip: string): number[] {
  let address = ip.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (v4) {
    const [a = 0, b = 0, c = 0, d = 0] = v4[1]!.split(".").map(Number);
    address = address.slice(0, -v4[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = address.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

/**
 * The IPv4 address a packet to this IPv6 address reaches: IPv4-mapped (::ffff:a.b.c.d, which the
 * kernel dials as IPv4) and NAT64 well-known prefix (64:ff9b::a.b.c.d, translated by a gateway).
 */
function embeddedV4(ip: string): string | null {
  const g = groups(ip);
  const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (!mapped && !nat64) return null;
  return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join(".");
}

export function isBlockedAddress(ip: string): boolean {
  const address = ip.split("%")[0]!; // a zone id (fe80::1%eth0) is not part of the address
  switch (net.isIP(address)) {
    case 4:
      return V4_BLOCKED.check(address, "ipv4");
    case 6: {
      const v4 = embeddedV4(address);
      if (v4 !== null) return V4_BLOCKED.check(v4, "ipv4");
      return !V6_GLOBAL.check(address, "ipv6") || V6_BLOCKED.check(address, "ipv6");
    }
    default:
      return true; // not an address at all: refuse rather than guess
  }
}

/**
 * The URL's host when it is an IP literal of a blocked address, else null. Literals never reach a
 * `lookup`, so whoever dials a URL checks them here first.
 */
export function blockedLiteral(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  return net.isIP(host) && isBlockedAddress(host) ? host : null;
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

type LookupCallback = (error: Error | null, address: string | dns.LookupAddress[], family?: number) => void;

const notFound = (hostname: string) =>
  Object.assign(new Error(`no usable address for ${hostname}`), { code: "ENOTFOUND" });

/**
 * A `lookup` for http(s).request: the socket connects only to the addresses returned here, so
 * checking them (every one, not just the first) is checking what is dialled.
 */
export function guardedLookup(resolver: Resolver, allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    resolver(hostname)
      .then((addresses) => {
        const blocked = addresses.find((a) => isBlockedAddress(a.address));
        // The address itself is not said: the attempt log is the partner's, and would map our network for them.
        if (blocked && !allowPrivate)
          throw new SsrfBlockedError(`blocked: ${hostname} resolves to a private or reserved address`);
        const usable = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
        const first = usable[0];
        if (!first) throw notFound(hostname);
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      })
      .catch((error: Error) => callback(error, ""));
  };
}

/** Host names that only mean something inside the operator's network (Kubernetes services included). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|localdomain|home\.arpa|lan|intranet|corp|svc|cluster\.local)$/i;

/** The longest URL an endpoint may have (the API's schema and the portal alike). */
export const MAX_URL_LENGTH = 2048;

/** Why a webhook URL is refused at creation, or null when it is acceptable. */
export function urlProblem(raw: string, mode: "test" | "live", allowPrivate: boolean): string | null {
  // The URL parser would drop or encode them silently, and PostgreSQL text cannot hold a NUL.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose.
  if (/[\u0000-\u001f\u007f]/.test(raw)) return "must not contain control characters";
  if (raw.length > MAX_URL_LENGTH) return `must have at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must use https (or http in test mode)";
  if (mode === "live" && url.protocol !== "https:") return "must use https in live mode";
  if (url.username || url.password) return "must not contain credentials";
  // The URL parser has already turned 2130706433, 0x7f.1 and the like into dotted IPv4.
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (!host) return "must have a host";
  if (!allowPrivate) {
    if (blockedLiteral(url)) return "points to a private, loopback or reserved address";
    if (LOCAL_NAME.test(host)) return "points to a local host name";
    // `postgres`, `redis`, `kubernetes`: single-label names resolve only through the operator's search domains.
    if (!net.isIP(host) && !host.includes(".")) return "must use a fully qualified public host name";
  }
  return null;
}
