// `npm run bench -- ceiling`: how fast binring's write pattern can go on this
// machine at all, measured without binring. Six bare Node processes, each with
// its own redis-server (relay-node.ts), take a write from the client, forward
// it to both backups and apply it themselves at once, and answer once all
// three have it: binring's message pattern for a set and process count, without gRPC,
// protobuf, stamps, checks or keepers. Once with a plain SET per replica, once
// with binring's apply script per replica; beside them, in the same run and
// measured in turns as the peers benchmark does, binring itself and
// redis-server with 2 replicas driven with SET + WAIT 2, and binring on the
// in-memory store (no redis-server): what separates that from binring is what
// its store costs a write, and so bounds what any change to the store could
// give. What separates the relay from binring is binring's own cost per write;
// what separates the relay from the WAIT 2 peer is the pattern's. Each
// system's CPU per set (cpu-cost.ts) says which processes pay it.
import { type ChildProcess, fork } from "node:child_process";
import { REPO_ROOT } from "../support/binring-process.js";
import { RedisServer, startBinring } from "./contenders.js";
import {
  binringProcesses,
  type CpuCost,
  cpuCostSection,
  measureCpuCost,
  type ProcessGroups,
} from "./cpu-cost.js";
import { type Cell, cellName, measureInTurns, startTurns, warmUpRule } from "./in-turns.js";
import { fmt, table } from "./measure.js";
import { REPLICAS, RedisReplicas } from "./redis-replicas.js";
import type { RelayMode } from "./relay-lines.js";
import type { BenchResult } from "./result.js";
import { type BenchSettings, progress } from "./settings.js";
import { type SystemSpec, WAIT_TIMEOUT_MS } from "./systems.js";

const NODES = 6;

const CELLS: Cell[] = [
  { workload: "set", concurrency: 1 },
  { workload: "set", concurrency: 64 },
];

/** The relay's processes and their Redis servers. */
export class Relay {
  private constructor(
    private readonly redis: RedisServer[],
    private readonly children: ChildProcess[],
    readonly ports: number[],
  ) {}

  static async start(nodes = NODES): Promise<Relay> {
    const redis = await Promise.all(Array.from({ length: nodes }, () => RedisServer.start()));
    // The built file, also when a test runs this module from its source.
    const node = `${REPO_ROOT}test/dist/bench/relay-node.js`;
    const children = redis.map((server) => fork(node, [server.url], { stdio: "ignore" }));
    const listening = children.map(
      (child) =>
        new Promise<number>((resolve, reject) => {
          child.once("message", (m: { port: number }) => resolve(m.port));
          child.once("exit", (code) => reject(new Error(`${node} exited with ${code} before listening`)));
        }),
    );
    const relay = new Relay(redis, children, []);
    try {
      relay.ports.push(...(await Promise.all(listening)));
    } catch (error) {
      await relay.stop();
      throw error;
    }
    return relay;
  }

  get redisUrls(): string[] {
    return this.redis.map((server) => server.url);
  }

  get processes(): ProcessGroups {
    return {
      backends: this.children.flatMap((child) => (child.pid ? [child.pid] : [])),
      "redis-servers": this.redis.map((server) => server.pid),
    };
  }

  spec(mode: RelayMode): SystemSpec {
    const apply = mode === "set" ? "SET" : "binring's apply script";
    return { kind: "relay", name: `relay, ${apply} per replica`, ports: this.ports, mode };
  }

  async stop(): Promise<void> {
    for (const child of this.children) child.kill();
    await Promise.all(this.redis.map((server) => server.destroy()));
  }
}

export async function ceilingBench(settings: BenchSettings): Promise<BenchResult> {
  const stops: (() => Promise<void>)[] = [];
  try {
    progress("ceiling: starting the relay, redis with 2 replicas, and binring on Redis and in memory");
    const relay = await Relay.start();
    stops.push(() => relay.stop());
    const replicas = await RedisReplicas.start();
    stops.push(() => replicas.destroy());
    const binring = await startBinring(NODES, settings.keepers);
    stops.push(() => binring.cluster.stop());
    const inMemory = await startBinring(NODES, settings.keepers, { store: "memory" });
    stops.push(() => inMemory.cluster.stop());
    const peer: SystemSpec = {
      kind: "redis-replicas",
      name: `redis master + ${REPLICAS} replicas, SET + WAIT ${REPLICAS}`,
      url: replicas.master.url,
      replicas: REPLICAS,
    };
    const specs = [relay.spec("set"), relay.spec("script"), binring.spec, inMemory.spec, peer];
    const processes: ProcessGroups[] = [
      relay.processes,
      relay.processes,
      binringProcesses(binring),
      binringProcesses(inMemory),
      { "redis-servers": [replicas.master, ...replicas.replicas].map((server) => server.pid) },
    ];
    const turns = await startTurns(specs, stops);
    const results = await measureInTurns("ceiling", turns, CELLS, settings);
    const costs: CpuCost[] = [];
    for (const [i, { name, load }] of turns.entries()) {
      costs.push(await measureCpuCost(name, processes[i]!, load, "set", settings.quick ? 300 : 3000));
      progress(`ceiling: ${name}: CPU per set measured`);
    }
    const rows = CELLS.flatMap((cell) => {
      const bySystem = results.get(cellName(cell))!;
      const baseline = bySystem.get(peer.name)!.opsPerSecond;
      return specs.map((spec) => {
        const m = bySystem.get(spec.name)!;
        return [
          cell.concurrency,
          spec.name,
          fmt.ops(m.opsPerSecond),
          fmt.ms(m.p50Ms),
          fmt.ms(m.p99Ms),
          m.errors,
          fmt.times(m.opsPerSecond, baseline),
        ];
      });
    });
    return {
      markdown: `## The write pattern's ceiling: a bare relay beside binring and Redis with WAIT ${REPLICAS}

Sets, 1000 keys, 32-byte values. **Relay**: ${NODES} bare Node processes, each with its own redis-server,
doing binring's write pattern and nothing else: a write goes to the node its key hashes to, which
forwards it to the two nodes after it and applies it itself, all at once, and answers once all three have it
(plain TCP, one line per message, each connection's lines of one event-loop turn in one write:
\`test/src/bench/relay-node.ts\`). Its two rows differ only in the Redis call per replica: a SET, or
binring's \`apply-entries.lua\` with one entry. binring: ${NODES} backends and the keepers \`binring dev\`
starts, once on Redis and once on the in-memory store (\`--store memory\`: the same processes and
messages, no redis-server, so no store call; what it gains over binring is all a store could ever
save). Redis: a master and ${REPLICAS} replicas, every SET followed by \`WAIT ${REPLICAS} ${WAIT_TIMEOUT_MS}\`
(as in the peers benchmark).

All run at once and are measured in turns (which goes first rotates), from one client process each.
Before the first cell the load ${warmUpRule(settings)}; then ${settings.durationMs} ms after
${settings.warmupMs} ms warm-up, ${settings.runs} run(s) per cell, the run with the median throughput
reported. The last column is throughput as a multiple of Redis with WAIT ${REPLICAS} in the same cell.

${table(["set concurrency", "system", "ops/s", "p50 ms", "p99 ms", "errors", `÷ WAIT ${REPLICAS}`], rows)}

${cpuCostSection(costs)}
The relay's ${NODES} Node processes count as its backends.
`,
    };
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}
