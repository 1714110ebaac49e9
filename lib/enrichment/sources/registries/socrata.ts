// Socrata open-data portals (ICAEN's, the Balearic one): an app token lifts a client out of the
// throttled pool that unauthenticated calls share (dev.socrata.com, "Application Tokens").
const SOCRATA_HOSTS: ReadonlySet<string> = new Set(["analisi.transparenciacatalunya.cat", "catalegdades.caib.cat"]);

/** `X-App-Token` when a token is configured. */
export const appTokenHeader = (token: string | undefined): Record<string, string> =>
  token ? { "X-App-Token": token } : {};

/** The app token header for a download from a Socrata portal; none for other hosts (never leak the token). */
export function socrataHeaders(url: string, token: string | undefined): Record<string, string> {
  return SOCRATA_HOSTS.has(new URL(url).hostname) ? appTokenHeader(token) : {};
}
