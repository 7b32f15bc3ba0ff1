// What the rebalance benchmark measures of each foreground window: the load's
// latency and throughput, and the CPU the cluster and the whole machine used
// meanwhile; the cluster's processes grouped by part for the second-by-second
// table.
import { type RawMeasurement, summarise } from "@binring/load";
import type { Binring } from "./contenders.js";
import { binringProcesses } from "./cpu-cost.js";
import { busyCores, type MachineCpu, machineCpu } from "./machine-cpu.js";
import { fmt } from "./measure.js";
import { MoveTimeline } from "./move-timeline.js";
import { cpuByPid, cpuUsedBetween } from "./process-cpu.js";
import type { Foreground } from "./rebalance-foreground.js";
import { progress } from "./settings.js";

/** A foreground load's numbers, and the cores the cluster and the machine used meanwhile. */
export type Measurement = ReturnType<typeof summarise> & {
  cpuMicros: number;
  wallMs: number;
  cores: number;
  /** Cores the whole machine had busy (machine-cpu.ts). */
  machineCores: number;
};

/** The cluster's processes by part, the backend that joins or leaves on its own. */
export function roles(binring: Binring, moving?: string): Record<string, number[]> {
  const pids = (members: typeof binring.cluster.members) =>
    members.flatMap((m) => (m.backend?.child.pid === undefined ? [] : [m.backend.child.pid]));
  const groups = binringProcesses(binring);
  return {
    ...(moving === undefined
      ? { backends: pids(binring.cluster.members) }
      : {
          "moving backend": pids(binring.cluster.members.filter((m) => m.address === moving)),
          "other backends": pids(binring.cluster.members.filter((m) => m.address !== moving)),
        }),
    "redis-servers": groups["redis-servers"] ?? [],
    keepers: groups.keepers ?? [],
    "bench process": [process.pid],
  };
}

export async function idle(
  binring: Binring,
  foreground: Foreground,
  ms: number,
): Promise<Measurement & { timeline: string }> {
  const cpuBefore = cpuReadings(binring);
  const startedAt = performance.now();
  const timeline = new MoveTimeline(() => roles(binring), startedAt);
  const endAt = startedAt + ms;
  const raw = await foreground.run(() => performance.now() >= endAt, timeline.observe);
  timeline.stop();
  const result = {
    ...measured(raw, cpuBefore, cpuReadings(binring), performance.now() - startedAt),
    timeline: timeline.markdown(),
  };
  progress(
    `rebalance: idle, ${foreground.label}: ${fmt.ops(result.opsPerSecond)} ops/s, p99 ${fmt.ms(result.p99Ms)} ms`,
  );
  return result;
}

/** The load's numbers, and the CPU the processes alive before and after used over `wallMs`. */
export function measured(
  raw: RawMeasurement,
  before: CpuReadings,
  after: CpuReadings,
  wallMs: number,
): Measurement {
  const result = summarise(raw);
  raw.histogram.destroy();
  const cpuMicros = cpuUsedBetween(before.cluster, after.cluster);
  return {
    ...result,
    cpuMicros,
    wallMs,
    cores: cpuMicros / (wallMs * 1000),
    machineCores: busyCores(before.machine, after.machine),
  };
}

/** The cluster's CPU by pid and the whole machine's, read together. */
export interface CpuReadings {
  cluster: Map<number, number>;
  machine: MachineCpu;
}

export function cpuReadings(binring: Binring): CpuReadings {
  return { cluster: clusterCpu(binring), machine: machineCpu() };
}

/** CPU used so far by every backend, redis-server and keeper of the cluster, µs by pid; one that exited is left out. */
function clusterCpu(binring: Binring): Map<number, number> {
  const groups = binringProcesses(binring);
  return cpuByPid([
    ...(groups.backends ?? []),
    ...(groups["redis-servers"] ?? []),
    ...(groups.keepers ?? []),
  ]);
}

export function median(sorted: readonly number[]): number {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
