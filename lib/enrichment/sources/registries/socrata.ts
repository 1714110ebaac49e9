// Socrata open-data portals (ICAEN's, the Balearic one): an app token lifts a client out of the
// throttled pool that unauthenticated calls share (dev.socrata.com, "Application Tokens").
const SOCRATA_HOSTS: ReadonlySet<string> = new Set(["analisi.transparenciacatalunya.cat", "catalegdades.caib.cat"]);

/** `X-App-Token` for a Socrata URL when a token is configured; no header otherwise. */
export function socrataHeaders(url: string, token: string | undefined): Record<string, string> {
  return token && SOCRATA_HOSTS.has(new URL(url).hostname) ? { "X-App-Token": token } : {};
}
