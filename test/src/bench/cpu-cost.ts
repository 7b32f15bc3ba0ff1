// CPU per operation of each system under test, every process it runs counted
// (servers and the client process), from /proc/<pid>/stat. At c=64 every
// system here is CPU-bound, so what an operation costs in CPU, not in round
// trips, sets its ceiling: cores × 1 s ÷ CPU per operation.

import { cpus } from "node:os";
import type { WorkloadName } from "@binring/load";
import type { Binring, RedisCluster, RedisServer } from "./contenders.js";
import type { LoadProcesses } from "./load-processes.js";
import { fmt, table } from "./measure.js";
import { processCpuMicros } from "./process-cpu.js";

/** The kinds of process a system runs, each with its pids; the client process is added by the measurement. */
export type ProcessGroups = Partial<Record<ProcessGroup, number[]>>;
export type ProcessGroup = "backends" | "redis-servers" | "keepers" | "client";
const GROUPS: ProcessGroup[] = ["backends", "redis-servers", "keepers", "client"];

export const CPU_COST_WORKLOADS: WorkloadName[] = ["set", "get"];
export const CPU_COST_CONCURRENCY = 64;

export interface CpuCost {
  workload: WorkloadName;
  system: string;
  opsPerSecond: number;
  /** µs of CPU per completed operation, by process group. */
  microsPerOp: Partial<Record<ProcessGroup, number>>;
}

function alive(pids: (number | undefined)[]): number[] {
  return pids.filter((pid): pid is number => pid !== undefined && pid > 0);
}

export function binringProcesses(binring: Binring): ProcessGroups {
  const members = binring.cluster.members;
  return {
    backends: alive(members.map((m) => m.backend?.child.pid)),
    // None on the in-memory store.
    "redis-servers": alive(members.map((m) => m.redis?.pid)),
    keepers: alive(binring.cluster.keeperProcesses.map((k) => k?.pid)),
  };
}

export function redisClusterProcesses(cluster: RedisCluster): ProcessGroups {
  return { "redis-servers": alive(cluster.nodes.map((node) => node.process?.pid)) };
}

export function redisServerProcesses(redis: RedisServer): ProcessGroups {
  return { "redis-servers": alive([redis.pid]) };
}

/** Runs the workload at c=64 for `durationMs` and divides each group's CPU by the operations completed. */
export async function measureCpuCost(
  system: string,
  groups: ProcessGroups,
  load: LoadProcesses,
  workload: WorkloadName,
  durationMs: number,
): Promise<CpuCost> {
  const measured = { ...groups, client: load.pids };
  const cpuNow = () =>
    Object.fromEntries(
      Object.entries(measured).map(([group, pids]) => [
        group,
        pids.reduce((sum, pid) => sum + processCpuMicros(pid), 0),
      ]),
    );
  const before = cpuNow();
  const started = performance.now();
  const { opsPerSecond } = await load.run({
    workload,
    concurrency: CPU_COST_CONCURRENCY,
    durationMs,
    warmupMs: 0,
  });
  const seconds = (performance.now() - started) / 1000;
  const after = cpuNow();
  // CPU rate over operation rate: the run's few milliseconds of set-up and
  // drain count in both, so they cancel out nearly.
  const microsPerOp = Object.fromEntries(
    Object.keys(measured).map((group) => [group, (after[group]! - before[group]!) / seconds / opsPerSecond]),
  );
  return { workload, system, opsPerSecond, microsPerOp };
}

export function cpuCostSection(costs: CpuCost[]): string {
  const cores = cpus().length;
  const micros = (n: number | undefined) => (n === undefined ? "–" : Math.round(n).toLocaleString("en-US"));
  const rows = costs.map((cost) => {
    const total = GROUPS.reduce((sum, group) => sum + (cost.microsPerOp[group] ?? 0), 0);
    return [
      cost.workload,
      cost.system,
      fmt.ops(cost.opsPerSecond),
      ...GROUPS.map((group) => micros(cost.microsPerOp[group])),
      micros(total),
      fmt.ops((cores * 1_000_000) / total),
    ];
  });
  return `### CPU per operation: where the ceiling comes from

Each system at c=${CPU_COST_CONCURRENCY} from one client process, one run per cell; CPU time of every process of
the system and of the client process from \`/proc/<pid>/stat\` (10 ms ticks), divided by the operations
completed. With every core busy, a system cannot go faster than ${cores} cores × 1 s ÷ its CPU per
operation (last column), however its round trips are arranged.

${table(
  [
    "workload",
    "system",
    "ops/s",
    "backends µs/op",
    "redis-servers µs/op",
    "keepers µs/op",
    "client µs/op",
    "total µs/op",
    `ceiling on ${cores} cores, ops/s`,
  ],
  rows,
)}
`;
}
