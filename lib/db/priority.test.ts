import { spawn } from "node:child_process";
import { getPriority } from "node:os";
import { expect, it } from "vitest";
import { autogroupNice, lowerPriority } from "./priority";

const sleeper = (detached: boolean) => {
  const child = spawn("sleep", ["30"], { detached, stdio: "ignore" });
  return { pid: child.pid!, stop: () => child.kill("SIGKILL") };
};

it("gives a session leader's own autogroup the nice value, as a PostgreSQL backend's", () => {
  const leader = sleeper(true); // setsid(): a session, and so an autogroup, of its own
  try {
    lowerPriority(leader.pid, 19);
    expect(getPriority(leader.pid)).toBe(19);
    if (autogroupNice(leader.pid) !== null) expect(autogroupNice(leader.pid)).toBe(19);
  } finally {
    leader.stop();
  }
});

it("leaves the autogroup of a process in another's session alone (it would lower the whole session)", () => {
  const before = autogroupNice(process.pid);
  const member = sleeper(false);
  try {
    lowerPriority(member.pid, 19);
    expect(getPriority(member.pid)).toBe(19);
    expect(autogroupNice(member.pid)).toBe(before);
    expect(autogroupNice(process.pid)).toBe(before);
  } finally {
    member.stop();
  }
});
