// Links in emails: absolute on the deployment's own origin (PUBLIC_BASE_URL). Without it a link
// made during a request takes that request's origin (only then: SMTP_URL needs PUBLIC_BASE_URL,
// so such mail is only ever held in the outbox for operators); mail a worker writes names the path.
export const portalLink = (base: string | undefined, path: string): string => (base ? `${base}${path}` : path);
