// Every portal action that changes something asks the member's role first: each exported server
// action of the partner portal calls `memberFor` (or `onRow`, which calls it) with its entry of
// PORTAL_ACTIONS (lib/domain/roles.ts, whose own test says who may do what), except the member's own view.
import { readdir, readFile } from "node:fs/promises";
import { expect, it } from "vitest";
import { PORTAL_ACTIONS } from "@/lib/domain";

// Every feature's actions (a feature added later too).
const FILES = (await readdir("app/(portal)", { recursive: true }))
  .filter((file) => /(^|\/)actions\.ts$/.test(file))
  .map((file) => `app/(portal)/${file}`);
// The member's own view: not a change to the organisation.
const ANY_MEMBER = ["switchMode"];

/** Each exported action's name and body (up to the next top-level declaration). */
async function actions() {
  const found: { name: string; body: string }[] = [];
  for (const file of FILES) {
    const source = await readFile(file, "utf8");
    const starts = [...source.matchAll(/^export async function (\w+)/gm)];
    starts.forEach((m) => {
      const end = source.slice(m.index + 1).search(/^(export |const |async function |function )/m);
      found.push({ name: m[1]!, body: end < 0 ? source.slice(m.index) : source.slice(m.index, m.index + 1 + end) });
    });
  }
  return found;
}

it("every action checks its role, with an entry of PORTAL_ACTIONS, and every entry is some action's", async () => {
  const all = await actions();
  expect(FILES.length).toBeGreaterThan(4);
  expect(all.length).toBeGreaterThan(20);
  const named = new Set<string>();
  for (const { name, body } of all) {
    if (ANY_MEMBER.includes(name)) continue;
    const asked = [...body.matchAll(/(?:memberFor|ownEndpoint|onRow|onEndpoint)\(\s*"(\w+)"/g)].map((m) => m[1]!);
    expect({ name, asked: asked.length > 0 }).toEqual({ name, asked: true });
    for (const action of asked) {
      expect(Object.keys(PORTAL_ACTIONS)).toContain(action);
      named.add(action);
    }
  }
  expect(Object.keys(PORTAL_ACTIONS).filter((action) => !named.has(action))).toEqual([]);
});
