// `npm run bench -- peers`: binring against systems that, like it, answer a
// write only once it is copied: a redis-server master with two replicas
// (every write followed by WAIT 2), and a 3-member etcd cluster with fsync
// and with --unsafe-no-fsync (left out, with one line saying so, when etcd is
// not installed). All run at once and are measured in turns on set and get at
// c=1 and c=64.
import type { Measurement } from "@binring/load";
import { startBinring } from "./contenders.js";
import { ETCD_MISSING, EtcdCluster, etcdVersion, hasEtcd } from "./etcd-cluster.js";
import { type Cell, cellName, everyCellRow, measureInTurns, startTurns, warmUpRule } from "./in-turns.js";
import { fmt, table } from "./measure.js";
import { REPLICAS, RedisReplicas } from "./redis-replicas.js";
import type { BenchResult } from "./result.js";
import { type BenchSettings, progress } from "./settings.js";
import { type SystemSpec, WAIT_TIMEOUT_MS } from "./systems.js";

const BACKENDS = 6;

/** The cells, in order: a workload's first cell follows its warm-up. */
const CELLS: Cell[] = [
  { workload: "set", concurrency: 1 },
  { workload: "set", concurrency: 64 },
  { workload: "get", concurrency: 1 },
  { workload: "get", concurrency: 64 },
];

export async function peersBench(settings: BenchSettings): Promise<BenchResult> {
  const stops: (() => Promise<void>)[] = [];
  try {
    progress("peers: starting binring");
    const binring = await startBinring(BACKENDS, settings.keepers);
    stops.push(() => binring.cluster.stop());
    progress(`peers: starting a redis-server master with ${REPLICAS} replicas`);
    const replicas = await RedisReplicas.start();
    stops.push(() => replicas.destroy());
    const specs: SystemSpec[] = [
      binring.spec,
      {
        kind: "redis-replicas",
        name: `redis master + ${REPLICAS} replicas, WAIT ${REPLICAS}`,
        url: replicas.master.url,
        replicas: REPLICAS,
      },
    ];
    const withEtcd = hasEtcd();
    if (withEtcd) {
      for (const noFsync of [false, true]) {
        progress(`peers: starting etcd × 3${noFsync ? ", --unsafe-no-fsync" : ""}`);
        const etcd = await EtcdCluster.start({ noFsync });
        stops.push(() => etcd.destroy());
        specs.push({
          kind: "etcd",
          name: `etcd × 3, ${noFsync ? "--unsafe-no-fsync" : "fsync"}`,
          endpoints: etcd.endpoints,
        });
      }
    } else progress(ETCD_MISSING);
    const results = await measureInTurns("peers", await startTurns(specs, stops), CELLS, settings);
    return report(
      results,
      specs.map((spec) => spec.name),
      settings,
      withEtcd,
    );
  } finally {
    // Load processes first (they were started last), then the systems.
    for (const stop of stops.reverse()) await stop();
  }
}

function report(
  results: Map<string, Map<string, Measurement>>,
  systems: string[],
  settings: BenchSettings,
  withEtcd: boolean,
): BenchResult {
  const [binring, ...peers] = systems as [string, ...string[]];
  const summaryRows: (string | number)[][] = [];
  const detailRows: (string | number)[][] = [];
  for (const cell of CELLS) {
    const bySystem = results.get(cellName(cell))!;
    const b = bySystem.get(binring)!;
    summaryRows.push([
      cell.workload,
      cell.concurrency,
      fmt.ops(b.opsPerSecond),
      ...peers.map((peer) => fmt.times(b.opsPerSecond, bySystem.get(peer)!.opsPerSecond)),
    ]);
    for (const system of systems) {
      detailRows.push(everyCellRow(cell, system, bySystem.get(system)!));
    }
  }
  const etcd = withEtcd
    ? `etcd ${etcdVersion()} as 3 members on loopback, each with its own data directory, through the
\`etcd3\` npm client (one unary gRPC call per operation, to a member the client picks); a put is
answered once a majority (2 of 3) logged it, the third copy follows; gets are etcd's default,
linearizable reads. Once with fsync (etcd's default: each log write is on disk before it counts) and
once with \`--unsafe-no-fsync\` (the replication without the disk).`
    : `${ETCD_MISSING}: its columns are left out.`;
  return {
    markdown: `## Peers: systems that answer a write once it is copied

binring (${BACKENDS} backends, each with its own redis-server reached over its Unix socket, the keepers \`binring dev\` starts) answers
a write once all three copies have it. Beside it, on free ports on this machine: a redis-server
master with ${REPLICAS} replicas (REPLICAOF, no persistence, like the other Redis contenders), every
SET followed by \`WAIT ${REPLICAS} ${WAIT_TIMEOUT_MS}\` in one pipeline on ioredis' one auto-pipelined
connection (as the Redis Cluster contender sends \`WAIT 1\`), gets on the master; a write that not
every replica acknowledged counts as an error. ${etcd}

All systems run at once and are measured in turns (which goes first rotates), from one client process
each: 1000 keys, 32-byte values. Before a workload's first cell the load ${warmUpRule(settings)}; then
${settings.durationMs} ms after ${settings.warmupMs} ms warm-up, ${settings.runs} run(s) per cell, the
run with the median throughput reported.

### binring throughput as a multiple of each peer (×1.00 = equal)

${table(["workload", "concurrency", "binring ops/s", ...peers.map((peer) => `÷ ${peer}`)], summaryRows)}

### Every cell

${table(["workload", "concurrency", "system", "ops/s", "p50 ms", "p99 ms", "p99.9 ms", "errors"], detailRows)}
`,
  };
}
