// What each role of an organisation may do (least privilege, as Stripe's roles): one table, read by
// every portal action and page before it acts or shows anything, so hiding a button is never the
// only guard. API keys are not people: a key acts with its partner's whole access in its mode.
import { DomainError } from "./errors";
import { TEAM_ROLES, type Mode, type Role, type TeamRole } from "./words";

const BUILDERS = ["owner", "admin", "developer"] as const satisfies readonly TeamRole[];
const MANAGERS = ["owner", "admin"] as const satisfies readonly TeamRole[];

/** A permission: the roles that hold it (in test mode `inTest`, when it differs), and what it allows. */
interface Grant {
  roles: readonly TeamRole[];
  inTest?: readonly TeamRole[];
  what: string;
}

export const PERMISSIONS = {
  write: { roles: BUILDERS, what: "register properties or submit and cancel portfolios" },
  keys: { roles: BUILDERS, what: "see or change API keys" },
  webhooks: {
    roles: BUILDERS,
    what: "change webhook endpoints, see their signing secrets, send test events or replay deliveries",
  },
  // Viewers see test endpoints (never a secret): live ones are the production integration's.
  endpoints: { roles: BUILDERS, inTest: TEAM_ROLES, what: "see live webhook endpoints and their deliveries" },
  team: { roles: MANAGERS, what: "invite, remove or change the role of members" },
  activity: { roles: MANAGERS, what: "see the security history" },
  live: { roles: ["owner"], what: "request live access for the organisation" },
} as const satisfies Record<string, Grant>;
export type Permission = keyof typeof PERMISSIONS;

/**
 * Every portal action that changes something, and the permission it needs. Each server action
 * names its entry (test/portal-roles.test.ts checks that every exported action does).
 */
export const PORTAL_ACTIONS = {
  createKey: "keys",
  rollKey: "keys",
  revokeKey: "keys",
  registerProperty: "write",
  submitPortfolio: "write",
  cancelPortfolio: "write",
  createEndpoint: "webhooks",
  updateEndpoint: "webhooks",
  revealSecret: "webhooks",
  rotateSecret: "webhooks",
  expireOldSecret: "webhooks",
  toggleEndpoint: "webhooks",
  deleteEndpoint: "webhooks",
  sendTestEvent: "webhooks",
  replayDelivery: "webhooks",
  replayFailed: "webhooks",
  invite: "team",
  withdrawInvitation: "team",
  removeMember: "team",
  changeRole: "team",
  requestLive: "live",
} as const satisfies Record<string, Permission>;
export type PortalAction = keyof typeof PORTAL_ACTIONS;

/** Whether `role` holds `permission` in `mode`. Operators act in the console, never as a team. */
export function can(role: Role, permission: Permission, mode: Mode = "live"): boolean {
  if (role === "operator") return false;
  const grant: Grant = PERMISSIONS[permission];
  return (mode === "test" && grant.inTest ? grant.inTest : grant.roles).includes(role);
}

/** Why `role` may not, in words a member can act on; null when it may. */
export function refusalOf(role: Role, permission: Permission, mode: Mode = "live"): string | null {
  if (can(role, permission, mode)) return null;
  return `Your role (${role}) cannot ${PERMISSIONS[permission].what}. An owner or admin of your organisation can change your role.`;
}

/** Throws `forbidden` unless `role` holds `permission` in `mode`. */
export function authorize(role: Role, permission: Permission, mode: Mode = "live"): void {
  const refusal = refusalOf(role, permission, mode);
  if (refusal) throw new DomainError("forbidden", refusal);
}

/**
 * Why `actor` may not take a member from role `current` (null: not a member yet, invited) to `next`
 * (null: removed); null when it may. Owners and admins manage the team; only an owner makes or
 * unmakes an owner. (That an organisation keeps an owner is the database's to check: it counts them.)
 */
export function roleChangeRefusal(actor: Role, current: TeamRole | null, next: TeamRole | null): string | null {
  const refusal = refusalOf(actor, "team");
  if (refusal) return refusal;
  if (actor !== "owner" && (current === "owner" || next === "owner"))
    return "Only an owner can make a member an owner, or change or remove an owner.";
  return null;
}

/** The roles `actor` may give (invite with, or change a member to); none for a role that manages no team. */
export const grantableRoles = (actor: Role): TeamRole[] =>
  TEAM_ROLES.filter((next) => !roleChangeRefusal(actor, null, next));
