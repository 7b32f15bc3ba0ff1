// CPU time a process has used so far, from /proc/<pid>/stat (Linux only):
// user + system time, which the kernel reports in USER_HZ ticks (100 a second
// on every Linux architecture the benchmarks run on).
import { readFileSync } from "node:fs";

const MICROS_PER_TICK = 1_000_000 / 100;

export function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name, which sits in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * MICROS_PER_TICK;
}

/** CPU used so far by each of `pids` that is still running, µs by pid: one that exited is left out. */
export function cpuByPid(pids: Iterable<number>): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    try {
      cpu.set(pid, processCpuMicros(pid));
    } catch {
      // Exited since it was listed.
    }
  }
  return cpu;
}

/** CPU µs used between two readings by the processes in both: one that started or exited between them is left out. */
export function cpuUsedBetween(
  before: ReadonlyMap<number, number>,
  after: ReadonlyMap<number, number>,
): number {
  let micros = 0;
  for (const [pid, used] of after) micros += used - (before.get(pid) ?? used);
  return micros;
}
