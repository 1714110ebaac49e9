// Who is told what, in the transaction of the change that causes it: each function reads its
// recipients and queues their messages (./outbox.ts) with the caller's `tx`.
import { eq } from "drizzle-orm";
import { schema, type DbOrTx } from "@/lib/db";
import type { BatchCounts, Mode } from "@/lib/domain";
import { decideLiveAccess } from "@/lib/partners/live";
import { portalLink } from "./links";
import { membersToTell, queueEmails, toEach } from "./outbox";
import {
  endpointDisabledEmail,
  endpointFailingEmail,
  liveAccessEmail,
  portfolioCompletedEmail,
  type EndpointFacts,
  type Rendered,
} from "./templates";

/**
 * An operator's decision on an organisation's live access (./partners/live.ts decides), and its
 * owners told by email; null when there was nothing to decide.
 */
export async function decideLiveAccessAndTell(
  tx: DbOrTx,
  partnerId: string,
  approve: boolean,
  options: { waiting?: boolean; base: string | undefined },
): Promise<{ name: string } | null> {
  const decided = await decideLiveAccess(tx, partnerId, approve, { waiting: options.waiting });
  if (!decided) return null;
  const { organisation, emails } = await membersToTell(tx, partnerId, { roles: ["owner"] });
  const link = portalLink(options.base, approve ? "/keys" : "/keys#live-access");
  await queueEmails(tx, toEach(emails, partnerId, liveAccessEmail({ organisation, approved: approve, link })));
  return decided;
}

/** Webhooks are the owners', admins' and developers' to fix (viewers only read). */
const ENDPOINT_ROLES = ["owner", "admin", "developer"] as const;

export interface EndpointNotice {
  id: string;
  partnerId: string;
  url: string;
  mode: Mode;
  failingSince: Date;
  lastError: string | null;
}

/** The endpoint's organisation's members who fix webhooks, each told `render`'s message. */
async function tellAboutEndpoint(
  tx: DbOrTx,
  endpoint: EndpointNotice,
  base: string | undefined,
  render: (facts: EndpointFacts) => Rendered,
): Promise<void> {
  const { organisation, emails } = await membersToTell(tx, endpoint.partnerId, { roles: ENDPOINT_ROLES });
  const link = portalLink(base, `/webhooks/${endpoint.id}`);
  await queueEmails(tx, toEach(emails, endpoint.partnerId, render({ ...endpoint, organisation, link })));
}

export const tellEndpointFailing = (
  tx: DbOrTx,
  endpoint: EndpointNotice,
  options: { base: string | undefined; disableAfterDays: number },
) =>
  tellAboutEndpoint(tx, endpoint, options.base, (facts) =>
    endpointFailingEmail({ ...facts, disableAfterDays: options.disableAfterDays }),
  );

export const tellEndpointDisabled = (
  tx: DbOrTx,
  endpoint: EndpointNotice,
  options: { base: string | undefined; reason: string },
) =>
  tellAboutEndpoint(tx, endpoint, options.base, (facts) => endpointDisabledEmail({ ...facts, reason: options.reason }));

/** The members who asked for it (Account page) are told a portfolio completed. */
export async function tellPortfolioCompleted(
  tx: DbOrTx,
  batch: { id: string; partnerId: string; mode: Mode; name: string | null; counts: BatchCounts },
  options: { base: string | undefined },
): Promise<void> {
  const { organisation, emails } = await membersToTell(tx, batch.partnerId, {
    where: eq(schema.users.notifyPortfolioCompleted, true),
  });
  const link = portalLink(options.base, `/portfolios/${batch.id}`);
  const message = portfolioCompletedEmail({ ...batch, organisation, counts: { ...batch.counts }, link });
  await queueEmails(tx, toEach(emails, batch.partnerId, message));
}
