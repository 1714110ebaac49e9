// Who may do what, written out by hand (not derived from the table under test): every portal action
// and page permission for each role, in both modes.
import { describe, expect, it } from "vitest";
import { DomainError } from "./errors";
import { authorize, can, PORTAL_ACTIONS, refusalOf, roleChangeRefusal, type PortalAction } from "./roles";
import { ROLES, TEAM_ROLES, type Role } from "./words";

const BUILDERS = ["owner", "admin", "developer"];
const MANAGERS = ["owner", "admin"];
const EXPECTED: Record<PortalAction, string[]> = {
  createKey: BUILDERS,
  rollKey: BUILDERS,
  revokeKey: BUILDERS,
  registerProperty: BUILDERS,
  submitPortfolio: BUILDERS,
  cancelPortfolio: BUILDERS,
  createEndpoint: BUILDERS,
  updateEndpoint: BUILDERS,
  revealSecret: BUILDERS,
  rotateSecret: BUILDERS,
  expireOldSecret: BUILDERS,
  toggleEndpoint: BUILDERS,
  deleteEndpoint: BUILDERS,
  sendTestEvent: BUILDERS,
  replayDelivery: BUILDERS,
  replayFailed: BUILDERS,
  invite: MANAGERS,
  withdrawInvitation: MANAGERS,
  removeMember: MANAGERS,
  changeRole: MANAGERS,
  requestLive: ["owner"],
};

describe("portal actions by role", () => {
  it("lists every action the table holds, and no other", () => {
    expect(Object.keys(PORTAL_ACTIONS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [action, allowed] of Object.entries(EXPECTED) as [PortalAction, string[]][])
    for (const role of ROLES)
      for (const mode of ["test", "live"] as const) {
        const may = allowed.includes(role);
        it(`${role} ${may ? "may" : "may not"} ${action} (${mode})`, () => {
          expect(can(role, PORTAL_ACTIONS[action], mode)).toBe(may);
          const refusal = refusalOf(role, PORTAL_ACTIONS[action], mode);
          if (may) expect(refusal).toBeNull();
          else expect(refusal).toMatch(new RegExp(`^Your role \\(${role}\\) cannot .+\\. An owner or admin`));
        });
      }
});

describe("pages by role", () => {
  const cases: [Role, "keys" | "endpoints" | "activity", "test" | "live", boolean][] = [
    ["viewer", "keys", "test", false],
    ["viewer", "keys", "live", false],
    ["viewer", "endpoints", "test", true],
    ["viewer", "endpoints", "live", false],
    ["viewer", "activity", "live", false],
    ["developer", "keys", "live", true],
    ["developer", "endpoints", "live", true],
    ["developer", "activity", "test", false],
    ["admin", "activity", "test", true],
    ["owner", "activity", "live", true],
    ["operator", "keys", "test", false],
  ];
  for (const [role, permission, mode, may] of cases)
    it(`${role} ${may ? "sees" : "does not see"} ${permission} in ${mode}`, () =>
      expect(can(role, permission, mode)).toBe(may));

  it("authorize throws the domain's forbidden with the reason", () => {
    expect(() => authorize("viewer", "keys")).toThrow(DomainError);
    expect(() => authorize("viewer", "keys")).toThrow(/viewer\) cannot see or change API keys/);
    expect(() => authorize("developer", "keys")).not.toThrow();
  });
});

describe("role changes", () => {
  it("owners give and take any role; admins every role but owner; no one else any", () => {
    for (const current of [null, ...TEAM_ROLES])
      for (const next of [null, ...TEAM_ROLES]) {
        expect(roleChangeRefusal("owner", current, next)).toBeNull();
        const ownerInvolved = current === "owner" || next === "owner";
        expect(roleChangeRefusal("admin", current, next) === null).toBe(!ownerInvolved);
        for (const actor of ["developer", "viewer", "operator"] as const)
          expect(roleChangeRefusal(actor, current, next)).toMatch(/cannot invite, remove or change the role/);
      }
  });
});
