// `npm run bench -- throughput`: set, get, listAppend (RPUSH) and a 90/10
// get/set mix at several concurrencies, from one and from two client
// processes, on binring, Redis Cluster (plain and with WAIT 1) and one raw
// redis-server. Each cell is the median of several runs. Then what each
// system spends in CPU per set and per get (cpu-cost.ts).

import { type Measurement, preload, WORKLOADS, type WorkloadName } from "@binring/load";
import {
  type Binring,
  RedisCluster,
  RedisServer,
  rawRedisSpec,
  redisClusterSpecs,
  startBinring,
} from "./contenders.js";
import {
  binringProcesses,
  CPU_COST_WORKLOADS,
  type CpuCost,
  cpuCostSection,
  measureCpuCost,
  type ProcessGroups,
  redisClusterProcesses,
  redisServerProcesses,
} from "./cpu-cost.js";
import { LoadProcesses, WARM_UP_RULE } from "./load-processes.js";
import { fmt, measurementCells, medianRun, table } from "./measure.js";
import type { BenchResult } from "./result.js";
import { type BenchSettings, progress } from "./settings.js";
import { lineChart } from "./svg-chart.js";
import { connect, type SystemSpec } from "./systems.js";

const PROCESS_COUNTS = [1, 2];

/** results[system][processes][workload][concurrency] */
type Results = Map<string, Map<number, Map<WorkloadName, Map<number, Measurement>>>>;

export async function throughputBench(settings: BenchSettings): Promise<BenchResult> {
  const concurrencies = settings.quick ? [16] : [1, 16, 64, 256];
  progress("throughput: starting binring, Redis Cluster and raw Redis");
  let binring: Binring | undefined;
  let redisCluster: RedisCluster | undefined;
  let redis: RedisServer | undefined;
  const results: Results = new Map();
  const cpuCosts: CpuCost[] = [];
  try {
    [binring, redisCluster, redis] = await Promise.all([
      startBinring(6, settings.keepers),
      RedisCluster.start({ nodeTimeoutMs: 5000 }),
      RedisServer.start(),
    ]);
    const clusterProcesses = redisClusterProcesses(redisCluster);
    const systems: { spec: SystemSpec; processes: ProcessGroups }[] = [
      { spec: binring.spec, processes: binringProcesses(binring) },
      ...redisClusterSpecs(redisCluster).map((spec) => ({ spec, processes: clusterProcesses })),
      { spec: rawRedisSpec(redis), processes: redisServerProcesses(redis) },
    ];
    const specs = systems.map((system) => system.spec);
    for (const { spec, processes: serverProcesses } of systems) {
      const client = connect(spec);
      await preload(client);
      await client.close();
      const bySystem = new Map<number, Map<WorkloadName, Map<number, Measurement>>>();
      results.set(spec.name, bySystem);
      for (const processes of PROCESS_COUNTS) {
        const load = await LoadProcesses.start(spec, processes);
        const byWorkload = new Map<WorkloadName, Map<number, Measurement>>();
        bySystem.set(processes, byWorkload);
        try {
          for (const workload of WORKLOADS) {
            const byConcurrency = new Map<number, Measurement>();
            byWorkload.set(workload, byConcurrency);
            // One operation in flight cannot be split over two processes; a
            // quick run tries two processes on one workload only.
            if (settings.quick && processes > 1 && workload !== "mixed") continue;
            if (!settings.quick) {
              const warmUpMs = await load.warmUp(workload, 64);
              progress(
                `throughput: ${spec.name}, ${workload}, ${processes} process(es): warm after ${(warmUpMs / 1000).toFixed(0)} s`,
              );
            }
            for (const concurrency of concurrencies.filter((c) => c >= processes)) {
              const runs: Measurement[] = [];
              for (let run = 0; run < settings.runs; run++) {
                runs.push(
                  await load.run({
                    workload,
                    concurrency,
                    durationMs: settings.durationMs,
                    warmupMs: settings.warmupMs,
                  }),
                );
              }
              const median = medianRun(runs);
              byConcurrency.set(concurrency, median);
              progress(
                `throughput: ${spec.name}, ${workload}, c=${concurrency}, ${processes} process(es): ${fmt.ops(median.opsPerSecond)} ops/s, p99 ${fmt.ms(median.p99Ms)} ms`,
              );
            }
          }
          if (processes === 1) {
            for (const workload of CPU_COST_WORKLOADS) {
              const cost = await measureCpuCost(
                spec.name,
                serverProcesses,
                load,
                workload,
                settings.quick ? 300 : 3000,
              );
              cpuCosts.push(cost);
              progress(`throughput: ${spec.name}, ${workload}: CPU per operation measured`);
            }
          }
        } finally {
          await load.stop();
        }
      }
    }
    return report(results, specs, concurrencies, settings, cpuCosts);
  } finally {
    await Promise.all([binring?.cluster.stop(), redisCluster?.destroy(), redis?.destroy()]);
  }
}

function report(
  results: Results,
  specs: SystemSpec[],
  concurrencies: number[],
  settings: BenchSettings,
  cpuCosts: CpuCost[],
): BenchResult {
  const [binring, plain, waiting, raw] = specs.map((s) => s.name) as [string, string, string, string];
  const cell = (system: string, processes: number, workload: WorkloadName, c: number) =>
    results.get(system)?.get(processes)?.get(workload)?.get(c);
  const summaryRows: (string | number)[][] = [];
  const detailRows: (string | number)[][] = [];
  for (const processes of PROCESS_COUNTS) {
    for (const workload of WORKLOADS) {
      for (const c of concurrencies.filter((n) => n >= processes)) {
        const b = cell(binring, processes, workload, c);
        const ratio = (other: string) => {
          const o = cell(other, processes, workload, c);
          return b && o ? fmt.times(b.opsPerSecond, o.opsPerSecond) : "–";
        };
        summaryRows.push([
          workload,
          processes,
          c,
          b ? fmt.ops(b.opsPerSecond) : "–",
          ratio(plain),
          ratio(waiting),
          ratio(raw),
        ]);
        for (const system of [binring, plain, waiting, raw]) {
          const m = cell(system, processes, workload, c);
          if (!m) continue;
          detailRows.push([workload, processes, c, system, ...measurementCells(m)]);
        }
      }
    }
  }
  const charts: Record<string, string> = {};
  for (const workload of WORKLOADS) {
    charts[`throughput-${workload}.svg`] = lineChart({
      title: `${workload}: throughput vs concurrency (1 client process, median of ${settings.runs})`,
      xLabel: "operations in flight",
      yLabel: "ops/s (log)",
      xLog: true,
      yLog: true,
      series: [binring, plain, waiting, raw].map((system) => ({
        name: system,
        points: concurrencies.map((c) => [c, cell(system, 1, workload, c)?.opsPerSecond ?? null]),
      })),
    });
  }
  const chartLinks = WORKLOADS.map((w) => `![${w}](throughput-${w}.svg)`).join("\n");
  return {
    markdown: `## Throughput and latency: binring vs Redis Cluster vs raw Redis

Closed loop: \`concurrency\` operations in flight in total (split evenly over the client processes),
each next one issued when one completes; ${settings.durationMs} ms measured after ${settings.warmupMs} ms
warm-up, ${settings.runs} run(s) per cell (and, before a workload's first cell, the workload at c=64
${WARM_UP_RULE}), the run with the median throughput reported. Keys: 1000
preloaded names; values 32 bytes. binring: a bin per name, \`set\`/\`get\` key "k", \`listAppend\`
to "l"; Redis: \`NAME:k\` / \`NAME:l\` with SET, GET, RPUSH. \`mixed\`: 90% get, 10% set. "WAIT 1":
every write is followed by \`WAIT 1 1000\` on the key's master (in one pipeline); a write that no
replica acknowledged counts as an error. Latency percentiles come from merged HDR histograms.

### binring throughput as a multiple of the others (×1.00 = equal)

${table(["workload", "processes", "concurrency", "binring ops/s", `÷ ${plain}`, `÷ ${waiting}`, `÷ ${raw}`], summaryRows)}

${cpuCostSection(cpuCosts)}
### Every cell

${table(["workload", "processes", "concurrency", "system", "ops/s", "p50 ms", "p99 ms", "p99.9 ms", "errors"], detailRows)}

${chartLinks}
`,
    charts,
  };
}
