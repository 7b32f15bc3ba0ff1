// How busy the whole machine's CPUs are, from /proc/stat (Linux only): what
// every process, the kernel and the hypervisor (steal) took. A load that
// leaves the machine no idle core makes every call queue, whoever did the
// work, so the benchmarks show it beside the CPU of the processes they run.
import { readFileSync } from "node:fs";

export interface MachineCpu {
  /** Ticks of every CPU so far. */
  total: number;
  /** Of which idle or waiting for I/O. */
  idle: number;
  /** CPUs the kernel counts. */
  cpus: number;
}

export function machineCpu(): MachineCpu {
  const lines = readFileSync("/proc/stat", "utf8").split("\n");
  // user nice system idle iowait irq softirq steal; guest time is counted within user.
  const ticks = lines[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  return {
    total: ticks.reduce((sum, t) => sum + t, 0),
    idle: ticks[3]! + ticks[4]!,
    cpus: lines.filter((line) => /^cpu\d+ /.test(line)).length,
  };
}

/** The cores the machine had busy between two readings. */
export function busyCores(before: MachineCpu, after: MachineCpu): number {
  const total = after.total - before.total;
  return total > 0 ? ((total - (after.idle - before.idle)) / total) * after.cpus : 0;
}
