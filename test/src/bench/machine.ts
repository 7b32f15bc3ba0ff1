// The machine a run measured on, for every results file: results from
// different machines, or from a busy one, are not comparable.
import { execFileSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";

function redisVersion(): string {
  try {
    return /v=(\S+)/.exec(execFileSync("redis-server", ["--version"]).toString())?.[1] ?? "unknown";
  } catch {
    return "not installed";
  }
}

export function describeMachine(): string {
  const cores = cpus();
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(" / ");
  return [
    `${cores.length} cores × ${cores[0]?.model.trim() ?? "unknown CPU"}`,
    `${Math.round(totalmem() / 2 ** 30)} GiB memory`,
    `Node ${process.version}`,
    `redis-server ${redisVersion()}`,
    `load average at start ${load} (1/5/15 min)`,
    `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
  ].join(", ");
}

export const NOISE_NOTE =
  "This machine is shared with other jobs (see the load average): absolute numbers are noisy from run to run; compare the systems within one run, and ratios rather than absolutes.";
