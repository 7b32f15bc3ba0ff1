// `npm run bench -- failover`: a constant open-loop write load while one
// binring backend (with its redis-server) or one Redis Cluster master is
// SIGKILLed. Reports what clients saw, what was lost, and how long until
// full redundancy was back.
import { newHistogram } from "@binring/load";
import { waitFor } from "../support/wait-for.js";
import { clusterStatus, RedisCluster, startBinring } from "./contenders.js";
import { fmt, table } from "./measure.js";
import { OpenLoad, type WriteSample } from "./open-load.js";
import type { BenchResult } from "./result.js";
import { type BenchSettings, progress } from "./settings.js";
import { lineChart } from "./svg-chart.js";
import { connect, type SystemClient } from "./systems.js";

/** Deadline of one write, for both systems: a write still unanswered after it counts as an error. */
const WRITE_TIMEOUT_MS = 5000;
const RECOVERY_TIMEOUT_MS = 180_000;

interface FailoverRun {
  name: string;
  samples: WriteSample[];
  killedAtMs: number;
  load: OpenLoad;
  lost: number;
  /** Redis Cluster: the replica took over the slots (writes possible again). */
  takeoverMs: number | undefined;
  redundantMs: number;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function failoverBench(settings: BenchSettings): Promise<BenchResult> {
  const runs: FailoverRun[] = [await binringFailover(settings)];
  for (const nodeTimeoutMs of settings.quick ? [1000] : [5000, 1000]) {
    runs.push(await redisClusterFailover(settings, nodeTimeoutMs));
  }
  return report(runs, settings);
}

/** Runs the load, kills at `preMs`, keeps loading for failoverAfterMs, then waits for recovery and reads back. */
async function underLoad(
  name: string,
  client: SystemClient,
  settings: BenchSettings,
  kill: () => Promise<void>,
  recovered: (killedAtMs: number) => Promise<{ takeoverMs?: number; redundantMs: number }>,
): Promise<FailoverRun> {
  const load = new OpenLoad(client, settings.failoverRate, "failover-");
  load.start();
  await delay(settings.quick ? 1000 : 5000);
  progress(`failover: ${name}: SIGKILL`);
  const killedAtMs = performance.now();
  await kill();
  const recovery = recovered(killedAtMs);
  void recovery.catch(() => undefined);
  await delay(settings.failoverAfterMs - (performance.now() - killedAtMs));
  await load.stop();
  const { takeoverMs, redundantMs } = await recovery;
  progress(
    `failover: ${name}: full redundancy after ${Math.round(redundantMs)} ms; reading back ${fmt.ops(load.acknowledged.size)} writes`,
  );
  const lost = await countLost(client, load.acknowledged);
  return { name, samples: load.samples, killedAtMs, load, lost, takeoverMs, redundantMs };
}

/** Reads every acknowledged write back; a value that differs or cannot be read after retries is lost. */
async function countLost(client: SystemClient, acknowledged: Map<string, string>): Promise<number> {
  const entries = [...acknowledged];
  let lost = 0;
  for (let i = 0; i < entries.length; i += 64) {
    await Promise.all(
      entries.slice(i, i + 64).map(async ([key, value]) => {
        for (let attempt = 0; ; attempt++) {
          try {
            if ((await client.get(key)) !== value) lost++;
            return;
          } catch (error) {
            if (attempt >= 3) throw new Error(`cannot read ${key} back: ${(error as Error).message}`);
          }
        }
      }),
    );
  }
  return lost;
}

async function binringFailover(settings: BenchSettings): Promise<FailoverRun> {
  progress("failover: starting binring");
  const binring = await startBinring(6, settings.keepers, { callTimeoutMs: WRITE_TIMEOUT_MS });
  const client = connect(binring.spec);
  try {
    const victim = binring.cluster.addresses[0]!;
    return await underLoad(
      `${binring.spec.name}, kill one backend and its Redis`,
      client,
      settings,
      () => binring.cluster.kill(victim, { withRedis: true }),
      async (killedAtMs) => {
        await waitFor(
          "the keeper to declare the victim dead and finish its repair",
          async () => {
            const status = await clusterStatus(binring);
            return (
              status.backends.find((b) => b.address === victim)?.state === "dead" &&
              status.repairs.length === 0 &&
              status.completedRepairs.some((r) => r.kind === "repair")
            );
          },
          { timeoutMs: RECOVERY_TIMEOUT_MS, intervalMs: 20 },
        );
        return { redundantMs: performance.now() - killedAtMs };
      },
    );
  } finally {
    await client.close();
    await binring.cluster.stop();
  }
}

async function redisClusterFailover(settings: BenchSettings, nodeTimeoutMs: number): Promise<FailoverRun> {
  progress(`failover: starting Redis Cluster, cluster-node-timeout ${nodeTimeoutMs}`);
  const cluster = await RedisCluster.start({ nodeTimeoutMs });
  const client = connect({
    kind: "redis-cluster",
    name: "Redis Cluster",
    seeds: cluster.seeds,
    wait: false,
    commandTimeoutMs: WRITE_TIMEOUT_MS,
  });
  try {
    await client.set("warm-up", "1");
    const victim = (await cluster.masters())[0]!;
    return await underLoad(
      `Redis Cluster 3+3, cluster-node-timeout ${nodeTimeoutMs} ms, kill one master`,
      client,
      settings,
      () => cluster.kill(victim),
      async (killedAtMs) => {
        await waitFor(
          "a replica to take over the killed master's slots",
          async () => !(await cluster.masters()).includes(victim) && (await cluster.isHealthy()),
          { timeoutMs: RECOVERY_TIMEOUT_MS, intervalMs: 20 },
        );
        const takeoverMs = performance.now() - killedAtMs;
        // The operator's supervisor restarts the killed node at once; it rejoins as a replica.
        await cluster.restart(victim);
        await waitFor(
          "the restarted node to rejoin as a synced replica",
          async () => {
            const me = (await cluster.clusterNodes(victim)).find((n) => n.port === victim);
            return me?.role === "slave" && (await cluster.isRedundant());
          },
          { timeoutMs: RECOVERY_TIMEOUT_MS, intervalMs: 20 },
        );
        return { takeoverMs, redundantMs: performance.now() - killedAtMs };
      },
    );
  } finally {
    await client.close();
    await cluster.destroy();
  }
}

function p99Ms(samples: WriteSample[]): number {
  const histogram = newHistogram();
  for (const s of samples) histogram.recordValue(Math.max(1, Math.round((s.doneMs - s.dueMs) * 1000)));
  const p99 = histogram.getValueAtPercentile(99) / 1000;
  histogram.destroy();
  return p99;
}

function report(runs: FailoverRun[], settings: BenchSettings): BenchResult {
  const rows = runs.map((run) => {
    const before = run.samples.filter((s) => s.ok && s.dueMs < run.killedAtMs);
    const after = run.samples.filter((s) => s.ok && s.dueMs >= run.killedAtMs);
    const errors = [...run.load.errors.values()].reduce((sum, n) => sum + n, 0);
    return [
      run.name,
      fmt.ops(run.load.acknowledged.size),
      errors,
      Math.round(run.load.longestGapMs()),
      fmt.ms(p99Ms(before)),
      fmt.ms(p99Ms(after)),
      run.lost,
      run.takeoverMs === undefined ? "– (no takeover needed)" : Math.round(run.takeoverMs),
      Math.round(run.redundantMs),
    ];
  });
  const errorRows = runs.flatMap((run) =>
    [...run.load.errors].map(([message, count]) => [run.name, count, `\`${message.replace(/\|/g, "/")}\``]),
  );
  const bucketMs = settings.quick ? 250 : 500;
  const timeline = (run: FailoverRun, value: (bucket: WriteSample[]) => number | null) => {
    const buckets = new Map<number, WriteSample[]>();
    for (const s of run.samples) {
      const b = Math.floor((s.dueMs - run.killedAtMs) / bucketMs);
      const bucket = buckets.get(b);
      if (bucket) bucket.push(s);
      else buckets.set(b, [s]);
    }
    const first = Math.min(...buckets.keys());
    const last = Math.max(...buckets.keys());
    return Array.from({ length: last - first + 1 }, (_, i): [number, number | null] => {
      const bucket = buckets.get(first + i) ?? [];
      return [((first + i) * bucketMs) / 1000, value(bucket)];
    });
  };
  const latencyChart = lineChart({
    title: `Write latency across the failover (p99 per ${bucketMs} ms, ${settings.failoverRate} writes/s offered)`,
    xLabel: "seconds since SIGKILL (latency from when the write was due)",
    yLabel: "p99 ms of acknowledged writes (log)",
    yLog: true,
    markers: [{ x: 0, label: "SIGKILL" }],
    series: runs.map((run) => ({
      name: shortName(run.name),
      points: timeline(run, (bucket) => {
        const ok = bucket.filter((s) => s.ok);
        return ok.length === 0 ? null : p99Ms(ok);
      }),
    })),
  });
  const ackChart = lineChart({
    title: `Acknowledged writes per second across the failover (${settings.failoverRate} offered)`,
    xLabel: "seconds since SIGKILL (by when the write was due)",
    yLabel: "acknowledged writes/s",
    markers: [{ x: 0, label: "SIGKILL" }],
    series: runs.map((run) => ({
      name: shortName(run.name),
      points: timeline(run, (bucket) => (bucket.filter((s) => s.ok).length * 1000) / bucketMs),
    })),
  });
  const afterS = settings.failoverAfterMs / 1000;
  return {
    markdown: `## Failover under load: SIGKILL one node at a constant ${settings.failoverRate} writes/s

Open loop: writes are issued at a constant rate whatever happens, each to its own key, and latency
is counted from when a write was due (no coordinated omission). Each write has a ${WRITE_TIMEOUT_MS} ms
deadline (binring \`callTimeoutMs\`, ioredis \`commandTimeout\`); a write that fails or misses it is a
client-visible error. The node is killed after ${settings.quick ? 1 : 5} s of load; the load goes on
for ${afterS} s after the kill. Then every acknowledged write is read back: a missing or different
value is an acknowledged write lost. Redis Cluster is written without WAIT (its default, asynchronous
replication).

**Full redundancy** means: binring — the keeper declared the killed backend dead and finished the
repair, so every bin has three live copies again (on the five survivors; nothing is restarted).
Redis Cluster — a replica took over the dead master's slots ("takeover"), then the killed node,
restarted at once (as a supervisor would), rejoined as a replica of its old slots' new master with its
link up and its sync done: Redis Cluster does not re-replicate to another node by itself.

${table(
  [
    "system",
    "writes acknowledged",
    "client errors",
    "longest gap without an acknowledged write (ms)",
    "p99 before kill (ms)",
    `p99 in the ${afterS} s after (ms)`,
    "acknowledged writes lost",
    "takeover after kill (ms)",
    "full redundancy after kill (ms)",
  ],
  rows,
)}

${errorRows.length === 0 ? "No client saw an error." : `Errors clients saw:\n\n${table(["system", "count", "message (numbers blanked)"], errorRows)}`}

![write latency across the failover](failover-latency.svg)
![acknowledged writes per second across the failover](failover-throughput.svg)
`,
    charts: { "failover-latency.svg": latencyChart, "failover-throughput.svg": ackChart },
  };
}

/** Legend names: "binring", "Redis Cluster, timeout 5000 ms". */
function shortName(name: string): string {
  return name
    .replace(/ \(.*\)/, "")
    .replace(/, kill .*$/, "")
    .replace(" 3+3, cluster-node-timeout", ", timeout");
}
