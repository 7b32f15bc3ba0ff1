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
