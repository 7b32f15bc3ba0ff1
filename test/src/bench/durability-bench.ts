// `npm run bench -- durability`: what power-loss safety costs. Two binring
// clusters as `binring dev --appendfsync everysec` and `--appendfsync always`
// run them (6 backends, each Redis with an append-only file, the default
// keepers), both up at once and measured in turns, so drift on a shared
// machine falls on both: set at c=1 and c=64, and get at c=64 as a control
// (a get writes nothing to the append-only file). Also this disk's own fsync
// latency, which the cost follows.
import { execFileSync } from "node:child_process";
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { type Measurement, preload } from "@binring/load";
import { Redis } from "ioredis";
import { waitFor } from "../support/wait-for.js";
import { type Binring, startBinring } from "./contenders.js";
import { type Cell, cellName, everyCellRow, measureInTurns, warmUpRule } from "./in-turns.js";
import { LoadProcesses } from "./load-processes.js";
import { fmt, table } from "./measure.js";
import type { BenchResult } from "./result.js";
import { type BenchSettings, progress } from "./settings.js";
import { connect } from "./systems.js";

const BACKENDS = 6;
const MODES = ["everysec", "always"] as const;
type Mode = (typeof MODES)[number];

/** The cells, in order: a workload's first cell follows its warm-up. */
const CELLS: Cell[] = [
  { workload: "set", concurrency: 1 },
  { workload: "set", concurrency: 64 },
  { workload: "get", concurrency: 64 },
];

interface Contender {
  mode: Mode;
  binring: Binring;
  load: LoadProcesses;
}

export async function durabilityBench(settings: BenchSettings): Promise<BenchResult> {
  const contenders: Contender[] = [];
  const pending: Binring[] = [];
  try {
    for (const mode of MODES) {
      progress(`durability: starting binring, appendfsync ${mode}`);
      const binring = await startBinring(BACKENDS, settings.keepers, { appendfsync: mode });
      pending.push(binring);
      await expectDurability(binring, mode);
      const client = connect(binring.spec);
      await preload(client);
      await client.close();
      contenders.push({ mode, binring, load: await LoadProcesses.start(binring.spec, 1) });
    }
    const redisDir = contenders[0]!.binring.cluster.members[0]!.redis.dir;
    const disk = describeDisk(redisDir);
    const fsyncMs = measureFsync(redisDir, settings.quick ? 20 : 200);
    progress(`durability: Redis files on ${disk}; fsync of 4 KiB p50 ${fmt.ms(fsyncMs.p50)} ms`);
    const results = await measureInTurns(
      "durability",
      contenders.map(({ mode, load }) => ({ name: mode, load })),
      CELLS,
      settings,
    );
    return report(results, settings, disk, fsyncMs, settings.keepers);
  } finally {
    await Promise.all(contenders.map(({ load }) => load.stop()));
    await Promise.all(pending.map((binring) => binring.cluster.stop()));
  }
}

/** Fails unless every Redis of the cluster keeps an append-only file synced as `mode` says. */
async function expectDurability(binring: Binring, mode: Mode): Promise<void> {
  await Promise.all(
    binring.cluster.members.map(async (member) => {
      const redis = new Redis(member.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await waitFor(
          `${member.redis.url} to report appendonly yes, appendfsync ${mode}`,
          async () => {
            const [, appendonly] = (await redis.config("GET", "appendonly")) as string[];
            const [, appendfsync] = (await redis.config("GET", "appendfsync")) as string[];
            return appendonly === "yes" && appendfsync === mode;
          },
          { timeoutMs: 10_000, intervalMs: 100 },
        );
      } finally {
        redis.disconnect();
      }
    }),
  );
}

/** "ext4 /dev/vda": the file system and device the directory is on. */
function describeDisk(dir: string): string {
  try {
    const [, line] = execFileSync("df", ["--output=fstype,source", dir]).toString().trim().split("\n");
    const [fstype, source] = line!.trim().split(/\s+/);
    return `${fstype} (${source})`;
  } catch {
    return "an unknown file system";
  }
}

/** Latency of writing 4 KiB to a file and fsyncing it, `count` times, as the disk under the Redis files gives it. */
function measureFsync(dir: string, count: number): { p50: number; p99: number } {
  const scratch = mkdtempSync(join(dir, "fsync-probe-"));
  const fd = openSync(join(scratch, "probe"), "w");
  const block = Buffer.alloc(4096, 1);
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      writeSync(fd, block);
      fsyncSync(fd);
      times.push(performance.now() - started);
    }
  } finally {
    closeSync(fd);
    rmSync(scratch, { recursive: true, force: true });
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

function report(
  results: Map<string, Map<string, Measurement>>,
  settings: BenchSettings,
  disk: string,
  fsyncMs: { p50: number; p99: number },
  keepers: number,
): BenchResult {
  const summaryRows: (string | number)[][] = [];
  const detailRows: (string | number)[][] = [];
  for (const cell of CELLS) {
    const byMode = results.get(cellName(cell))!;
    const everysec = byMode.get("everysec")!;
    const always = byMode.get("always")!;
    summaryRows.push([
      cell.workload,
      cell.concurrency,
      fmt.ops(everysec.opsPerSecond),
      fmt.ops(always.opsPerSecond),
      fmt.times(always.opsPerSecond, everysec.opsPerSecond),
      fmt.times(always.p50Ms, everysec.p50Ms),
      fmt.times(always.p99Ms, everysec.p99Ms),
    ]);
    for (const mode of MODES) {
      detailRows.push(everyCellRow(cell, mode, byMode.get(mode)!));
    }
  }
  return {
    markdown: `## Durability: appendfsync always vs everysec

Two binring clusters as \`binring dev --appendfsync everysec\` (the default) and \`binring dev
--appendfsync always\` start them: ${BACKENDS} backends and ${keepers} keeper${keepers === 1 ? "" : "s"}, each backend's Redis with
an append-only file. everysec syncs it about once a second, so a power loss of all three replicas'
hosts at once can take the last second of acknowledged writes; always syncs each write before Redis
answers it, and binring acknowledges a write once every live replica answered, so it is on each
one's disk.

Both clusters run at once and are measured in turns (which goes first alternates), from one client
process each: 1000 bins, 32-byte values. Before a workload's first cell the load ${warmUpRule(settings)}; then ${settings.durationMs} ms after ${settings.warmupMs} ms warm-up, ${settings.runs} run(s) per cell, the run
with the median throughput reported. \`get\` writes nothing to the append-only file: it is the
control, and its ratio shows the noise. The Redis files are on ${disk}, where writing 4 KiB and
fsyncing it takes ${fmt.ms(fsyncMs.p50)} ms at p50 and ${fmt.ms(fsyncMs.p99)} ms at p99: the cost of always follows the
disk's fsync latency, so on another disk it differs.

### always as a multiple of everysec (×1.00 = equal; below 1 for ops/s, above 1 for latency, is the cost)

${table(["workload", "concurrency", "everysec ops/s", "always ops/s", "ops/s always ÷ everysec", "p50 always ÷ everysec", "p99 always ÷ everysec"], summaryRows)}

### Every cell

${table(["workload", "concurrency", "appendfsync", "ops/s", "p50 ms", "p99 ms", "p99.9 ms", "errors"], detailRows)}
`,
  };
}
