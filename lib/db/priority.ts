// Lowering a PostgreSQL session's server process's CPU priority (npm start's worker on the embedded
// server). Its nice value alone does nothing on Linux with autogroup scheduling (the default of
// desktop kernels, and on these machines): CPU is shared fairly between sessions first and by nice
// only within a session, and every PostgreSQL backend leads a session of its own (the postmaster's
// children call setsid()). So the backend's autogroup is given the nice value too, which for a
// session leader is its own group's alone; setpriority stays for kernels without autogroup.
import { readFileSync, writeFileSync } from "node:fs";
import { setPriority } from "node:os";

/** Whether `pid` leads its session (field 6 of /proc/<pid>/stat, after the command's parentheses). */
function leadsSession(pid: number): boolean {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ");
  return Number(fields?.[3]) === pid;
}

/**
 * Gives the process `pid` (a backend of a PostgreSQL on this machine) the nice value `nice`, and its
 * autogroup too where it leads its session (another session's group would take others with it).
 * Throws where neither may be changed (another user's process, no such process).
 */
export function lowerPriority(pid: number, nice: number): void {
  setPriority(pid, nice);
  try {
    if (leadsSession(pid)) writeFileSync(`/proc/${pid}/autogroup`, String(nice));
  } catch {
    // No /proc (not Linux) or no autogroup in this kernel: the nice value is what counts there.
  }
}

/** The autogroup nice value of `pid` (null without autogroup), for tests and benchmarks. */
export function autogroupNice(pid: number): number | null {
  try {
    const match = / nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, "utf8"));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
