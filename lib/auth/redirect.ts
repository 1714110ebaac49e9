// Where to go after signing in: only a path on this site. The value is resolved as a browser would
// (against a stand-in origin: `/..//evil.example/x`, `/.//evil.example/x`, tabs and backslashes
// included) and kept only if it stays on that origin and its path cannot be read as another host.
const HOME = "https://portal.invalid";

export function safeNextPath(next: string | null | undefined, fallback = "/dashboard"): string {
  if (!next?.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(next, HOME);
  } catch {
    return fallback;
  }
  if (url.origin !== HOME || url.pathname.startsWith("//") || url.pathname.includes("\\")) return fallback;
  return url.pathname + url.search + url.hash;
}
