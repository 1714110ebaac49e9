// What each email says: plain functions from the facts to a subject and a plain-text body (no HTML:
// every client shows it, and nothing a partner typed can become markup). Links are absolute when
// the deployment's PUBLIC_BASE_URL is known (./links.ts).
import type { EmailKind, Mode } from "@/lib/domain";

export interface Rendered {
  kind: EmailKind;
  subject: string;
  body: string;
  /** Holds a one-time link: its body is dropped once the SMTP server took it. */
  secret?: boolean;
}

const lines = (...parts: (string | null | false | undefined)[]) =>
  `${parts.filter((p): p is string => typeof p === "string").join("\n")}\n\n— Finca\n`;

export function invitationEmail(input: {
  organisation: string;
  role: string;
  link: string;
  invitedBy: string;
  expiresAt: Date;
}): Rendered {
  return {
    kind: "invitation",
    subject: `You are invited to join ${input.organisation} on Finca`,
    body: lines(
      `${input.invitedBy} invites you to join ${input.organisation} on Finca as ${input.role}.`,
      "",
      "Accept the invitation (the link works once):",
      input.link,
      "",
      `It expires on ${input.expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC.`,
      "If you did not expect it, ignore this email.",
    ),
    secret: true,
  };
}

export function passwordResetEmail(input: { link: string; minutes: number }): Rendered {
  return {
    kind: "password_reset",
    subject: "Reset your Finca password",
    body: lines(
      "Someone (we hope you) asked to reset the password of your Finca account.",
      "",
      `Choose a new password here (the link works once, for ${input.minutes} minutes):`,
      input.link,
      "",
      "If it was not you, ignore this email: your password stays as it is.",
    ),
    secret: true,
  };
}

export function liveAccessEmail(input: { organisation: string; approved: boolean; link: string }): Rendered {
  return {
    kind: "live_access_decided",
    subject: input.approved
      ? `Live access approved for ${input.organisation}`
      : `Live access refused for ${input.organisation}`,
    body: input.approved
      ? lines(
          `Finca approved live access for ${input.organisation}.`,
          "",
          "You can now make live keys and switch the portal to live mode:",
          input.link,
        )
      : lines(
          `Finca did not approve live access for ${input.organisation} this time.`,
          "",
          "Test mode stays open. You can send a new request, with more detail, from the Keys page:",
          input.link,
        ),
  };
}

export interface EndpointFacts {
  organisation: string;
  url: string;
  mode: Mode;
  failingSince: Date;
  lastError: string | null;
  link: string;
}

const endpointLines = (e: EndpointFacts) => [
  `Endpoint: ${e.url} (${e.mode} mode)`,
  `Failing since: ${e.failingSince.toISOString().slice(0, 16).replace("T", " ")} UTC`,
  e.lastError ? `Last error: ${e.lastError}` : null,
];

export function endpointFailingEmail(e: EndpointFacts & { disableAfterDays: number }): Rendered {
  return {
    kind: "endpoint_failing",
    subject: `Webhook endpoint failing: ${e.url}`,
    body: lines(
      `A webhook endpoint of ${e.organisation} has not accepted a delivery for a while.`,
      "",
      ...endpointLines(e),
      "",
      `Finca keeps retrying; after ${e.disableAfterDays} days of failures the endpoint is disabled.`,
      "See its deliveries and their answers:",
      e.link,
    ),
  };
}

export function endpointDisabledEmail(e: EndpointFacts & { reason: string }): Rendered {
  return {
    kind: "endpoint_disabled",
    subject: `Webhook endpoint disabled: ${e.url}`,
    body: lines(
      `Finca disabled a webhook endpoint of ${e.organisation} (${e.reason}).`,
      "",
      ...endpointLines(e),
      "",
      "No more events are sent to it. Fix the receiver, enable the endpoint again and replay what it missed:",
      e.link,
    ),
  };
}

export function portfolioCompletedEmail(input: {
  organisation: string;
  name: string | null;
  mode: Mode;
  counts: Record<string, number>;
  link: string;
}): Rendered {
  const tally = Object.entries(input.counts)
    .filter(([status, n]) => status !== "pending" && n > 0)
    .map(([status, n]) => `${status.replaceAll("_", " ")}: ${n}`);
  const title = input.name ? `"${input.name}"` : "A portfolio";
  return {
    kind: "portfolio_completed",
    subject: `Portfolio completed: ${input.name ?? "untitled"} (${input.mode})`,
    body: lines(
      `${title} of ${input.organisation} (${input.mode} mode) has completed.`,
      "",
      ...tally,
      "",
      "Its results (CSV, XLSX, NDJSON):",
      input.link,
      "",
      "You get this email because you asked for it on your Account page; turn it off there.",
    ),
  };
}
