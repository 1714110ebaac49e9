// Cross-site server actions (CSRF). Next.js refuses a server action whose Origin is not this
// server's host, but it answers that refusal with a 500, as if the server had failed: proxy.ts asks
// this first and answers 403. The test is Next.js's own (app-render/action-handler.js), so nothing
// Next.js would run is refused here: a POST that may be an action (a Next-Action header, or a
// multipart form), with an Origin whose host is not the X-Forwarded-Host's first value, else Host.
// No Origin passes, as in Next.js: browsers send one with every cross-site POST.

/** Whether a request is a server action from another origin (Next.js would refuse it with a 500). */
export function isForeignServerAction(method: string, headers: Headers): boolean {
  if (method !== "POST") return false;
  const multipart = (headers.get("content-type") ?? "").startsWith("multipart/form-data");
  if (headers.get("next-action") === null && !multipart) return false;
  const origin = headers.get("origin");
  if (origin === null) return false;
  const host = askedHost(headers);
  return !host || hostOf(origin) !== host;
}

/** The host a request was asked on: the X-Forwarded-Host's first value (a proxy's), else Host. */
const askedHost = (headers: Headers) => headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");

/**
 * The origin a request was asked on (X-Forwarded-Proto's first value when http or https, else http),
 * normalised; null without a host, or with one that is not a host alone (a user, a path, a query).
 * The headers are the asker's own: what is made of them goes back to that asker only.
 */
export function askedOrigin(headers: Headers): string | null {
  const host = askedHost(headers);
  if (!host) return null;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  try {
    const url = new URL(`${proto === "https" ? "https" : "http"}://${host}`);
    const hostAlone = !url.username && !url.password && url.pathname === "/" && !url.search && !url.hash;
    return hostAlone ? url.origin : null;
  } catch {
    return null;
  }
}

/** An Origin's host; null for `null` (a sandboxed frame, a file) or anything that is no URL. */
function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host || null;
  } catch {
    return null;
  }
}
