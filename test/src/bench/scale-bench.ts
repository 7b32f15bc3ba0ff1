// `npm run bench -- scale`: binring set and get throughput with 3, 6 and 12
// backends (each with its own redis-server), from one client process.
import { type Measurement, preload, type WorkloadName } from "@binring/load";
import { LocalCluster } from "../support/local-cluster.js";
import { LoadProcesses, WARM_UP_RULE } from "./load-processes.js";
import { fmt, medianRun, table } from "./measure.js";
import type { BenchResult } from "./result.js";
import { type BenchSettings, progress } from "./settings.js";
import { connect, type SystemSpec } from "./systems.js";

const CONCURRENCY = 64;

export async function scaleBench(settings: BenchSettings): Promise<BenchResult> {
  const sizes = settings.quick ? [3] : [3, 6, 12];
  const results = new Map<number, Record<"set" | "get", Measurement>>();
  for (const backends of sizes) {
    progress(`scale: starting ${backends} backends`);
    // Keepers are not on the data path; without them the backends start ready.
    const cluster = await LocalCluster.start({ backends, appendOnly: false });
    const spec: SystemSpec = {
      kind: "binring",
      name: `binring ${backends}`,
      backends: cluster.addresses,
      keepers: [],
    };
    let load: LoadProcesses | undefined;
    try {
      const client = connect(spec);
      await preload(client);
      await client.close();
      load = await LoadProcesses.start(spec, 1);
      const row: Partial<Record<"set" | "get", Measurement>> = {};
      for (const workload of ["set", "get"] as const satisfies WorkloadName[]) {
        await load.warmUp(workload, CONCURRENCY, settings.quick ? settings.durationMs : undefined);
        const runs: Measurement[] = [];
        for (let run = 0; run < settings.runs; run++) {
          runs.push(
            await load.run({
              workload,
              concurrency: CONCURRENCY,
              durationMs: settings.durationMs,
              warmupMs: settings.warmupMs,
            }),
          );
        }
        row[workload] = medianRun(runs);
        progress(`scale: ${backends} backends, ${workload}: ${fmt.ops(row[workload].opsPerSecond)} ops/s`);
      }
      results.set(backends, row as Record<"set" | "get", Measurement>);
    } finally {
      await load?.stop();
      await cluster.stop();
    }
  }
  const base = results.get(sizes[0]!)!;
  const rows = sizes.map((n) => {
    const r = results.get(n)!;
    return [
      n,
      fmt.ops(r.set.opsPerSecond),
      fmt.times(r.set.opsPerSecond, base.set.opsPerSecond),
      fmt.ms(r.set.p99Ms),
      fmt.ops(r.get.opsPerSecond),
      fmt.times(r.get.opsPerSecond, base.get.opsPerSecond),
      fmt.ms(r.get.p99Ms),
    ];
  });
  return {
    markdown: `## Scale: binring throughput by number of backends

One client process, ${CONCURRENCY} operations in flight, 1000 bins, 32-byte values; each workload
first ${WARM_UP_RULE}; then ${settings.durationMs} ms
after ${settings.warmupMs} ms warm-up, median of ${settings.runs} run(s). Every backend has its own
redis-server; all run on this one machine, so more backends share the same cores (see the machine
line): this shows the cost of a larger ring here, not the gain of adding machines.

${table(
  [
    "backends",
    "set ops/s",
    `set vs ${sizes[0]} backends`,
    "set p99 ms",
    "get ops/s",
    `get vs ${sizes[0]} backends`,
    "get p99 ms",
  ],
  rows,
)}
`,
  };
}
