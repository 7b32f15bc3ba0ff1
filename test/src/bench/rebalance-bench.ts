// `npm run bench -- rebalance`: 6 backends holding N keys each (three copies
// of every key), then one backend added with the keepers' AddBackend (what
// `binring admin add-backend` calls) and, separately, one of the six removed.
// For each: the time until the change is complete, what moved against the
// ideal, and foreground sets and gets during the move against idle. Done
// twice: under a closed loop that takes all the machine gives (throughput),
// and under a paced load at 40% of its throughput (latency below the cluster's
// saturation, though on 2 cores that load alone keeps most of the machine
// busy). The cluster's CPU during each (every backend, redis-server and keeper,
// from /proc) says what a move costs with less noise than the latency does;
// plain CPU load of as many cores beside the paced load says how much of the
// move's latency that CPU alone explains (rebalance-plain-load.ts).
import { addBackend, BinClient, removeBackend } from "@binring/client";
import { DEFAULT_KEEPER_TIMING } from "@binring/keeper";
import { waitFor } from "../support/wait-for.js";
import { type Binring, clusterStatus, startBinring } from "./contenders.js";
import { WARM_UP_RULE, warmUntilSteady } from "./load-processes.js";
import { fmt, table } from "./measure.js";
import { MoveTimeline } from "./move-timeline.js";
import { closedLoop, FOREGROUND, type Foreground, pacedLoad } from "./rebalance-foreground.js";
import { cpuReadings, idle, type Measurement, measured, median, roles } from "./rebalance-measure.js";
import { plainLoadMarkdown, plainLoads } from "./rebalance-plain-load.js";
import { bulkLoad } from "./repair-bench.js";
import type { BenchResult } from "./result.js";
import { type BenchSettings, progress } from "./settings.js";

const BACKENDS = 6;
/** The paced load's rate, as a share of the closed loop's idle throughput. */
const PACED_SHARE = 0.4;
/** How long a change may take before it is reported unfinished. */
const CHANGE_TIMEOUT_MS = 180_000;
/**
 * How often completion is asked of every keeper's /status. Each ask builds a
 * report on every keeper, load the idle measurement does not carry: asked
 * every 50 ms it was a few percent of the filling keeper's CPU. A change
 * takes seconds, so a quarter second is fine resolution.
 */
const COMPLETION_POLL_MS = 250;
/**
 * How long the foreground is measured idle: as long as the goal lets a move
 * take. A p99 over a shorter window than the move's is not the same measure:
 * this machine's foreground has a burst every several seconds whether a move
 * runs or not, which a 5-s window catches or misses (paced idle p99 of
 * consecutive 5-s windows 15.6–49.9 ms where the 20 s held 26.3–33.8).
 */
const IDLE_MS = 20_000;
/** With --quick, the warm-up is cut short: the smoke run checks the tables, not the numbers. */
const QUICK_WARM_UP_MAX_MS = 3000;

interface Change {
  name: string;
  ms: number;
  onNew: string;
  copied: number;
  during: Measurement;
  /** The change second by second (move-timeline.ts). */
  timeline: string;
}

export async function rebalanceBench(settings: BenchSettings): Promise<BenchResult> {
  const perBackend = settings.quick ? 5_000 : 100_000;
  const idleMs = settings.quick ? 1000 : IDLE_MS;
  // Each key is on three of the six backends.
  const keys = (perBackend * BACKENDS) / 3;
  // The ideal: the new backend holds its 1/7 share of all copies; removing one of 7 moves its 1/7.
  const ideal = (keys * 3) / (BACKENDS + 1);
  const binring = await startBinring(BACKENDS, settings.keepers);
  const originals = [...binring.cluster.addresses];
  const client = new BinClient({ backends: binring.cluster.addresses, keepers: binring.cluster.keepers });
  try {
    progress(`rebalance: loading ${fmt.ops(keys)} keys`);
    await bulkLoad(client, keys, BigInt((await clusterStatus(binring)).epoch));

    // Each pair (idle, add, remove) runs `runs` times per load, removing another original each time:
    // one run's ratio to idle varies by 2x on this shared machine, so the median is what to compare.
    const runs = Math.min(settings.runs, originals.length / 2);
    const closed = closedLoop(client);
    // Fresh processes run cold, and the paced load's rate is taken from the closed loop's idle throughput.
    const warmUpMs = await warmUntilSteady(
      async (windowMs) => {
        const endAt = performance.now() + windowMs;
        const raw = await closed.run(() => performance.now() >= endAt);
        raw.histogram.destroy();
        return raw.completed / (raw.durationMs / 1000);
      },
      settings.quick ? QUICK_WARM_UP_MAX_MS : undefined,
    );
    progress(`rebalance: warmed up in ${fmt.ops(warmUpMs)} ms`);
    const closedPairs: Pair[] = [];
    for (let r = 0; r < runs; r++)
      closedPairs.push(await pair(binring, closed, originals[r]!, ideal, idleMs));
    const closedIdle = closedPairs[0]!.idle;
    const paced = pacedLoad(client, Math.max(1, Math.round(closedIdle.opsPerSecond * PACED_SHARE)));
    const pacedPairs: Pair[] = [];
    for (let r = 0; r < runs; r++)
      pacedPairs.push(await pair(binring, paced, originals[runs + r]!, ideal, idleMs));
    const addCores = median(
      pacedPairs.map((p) => Math.max(0, p.changes[0].during.cores - p.idle.cores)).sort((a, b) => a - b),
    );
    const burns = await plainLoads(binring, paced, addCores, runs, idleMs);
    const pacedAdds = pacedPairs.map((p) => p.changes[0].during.p99Ms / p.idle.p99Ms).sort((a, b) => a - b);

    const row = (foreground: Foreground, idleLoad: Measurement, change: Change, run: number) => [
      change.name,
      `${foreground.label}${runs > 1 ? `, run ${run + 1}` : ""}`,
      fmt.ops(change.ms),
      change.onNew,
      fmt.ops(change.copied),
      fmt.ops(change.during.opsPerSecond),
      fmt.ms(change.during.p99Ms),
      fmt.times(change.during.p99Ms, idleLoad.p99Ms),
      change.during.errors,
      `${change.during.cores.toFixed(2)} (${idleLoad.cores.toFixed(2)})`,
      `${change.during.machineCores.toFixed(2)} (${idleLoad.machineCores.toFixed(2)})`,
      change.copied > 0 ? fmt.ops(extraMicrosPerEntry(change, idleLoad)) : "–",
    ];
    const header = [
      "change",
      "foreground",
      "complete after (ms)",
      "keys on the new replicas",
      "entries copied",
      "foreground ops/s during",
      "p99 during (ms)",
      "p99 vs idle",
      "errors",
      "cluster cores during (idle)",
      "machine cores busy during (idle)",
      "extra CPU per entry copied (µs)",
    ];
    const idleLine = (foreground: Foreground, pairs: Pair[]) =>
      `${foreground.label}: ${pairs
        .map(
          ({ idle: load }) =>
            `${fmt.ops(load.opsPerSecond)} ops/s, p50 ${fmt.ms(load.p50Ms)} ms, p99 ${fmt.ms(load.p99Ms)} ms, cluster ${load.cores.toFixed(2)} cores, machine ${load.machineCores.toFixed(2)} cores busy`,
        )
        .join("; ")}`;
    const rows = (foreground: Foreground, pairs: Pair[]) =>
      pairs.flatMap((p, run) => p.changes.map((change) => row(foreground, p.idle, change, run)));
    const medianLine = (foreground: Foreground, pairs: Pair[], which: 0 | 1) => {
      const ratios = pairs.map((p) => p.changes[which]!.during.p99Ms / p.idle.p99Ms).sort((a, b) => a - b);
      const times = pairs.map((p) => p.changes[which]!.ms).sort((a, b) => a - b);
      return `| ${pairs[0]!.changes[which]!.name} | ${foreground.label} | ${fmt.ops(median(times))} | ×${median(ratios).toFixed(2)} | ${ratios.map((x) => `×${x.toFixed(2)}`).join(", ")} |`;
    };
    return {
      markdown: `## Rebalance: add a backend to ${BACKENDS}, remove one, with ${fmt.ops(perBackend)} keys per backend

${fmt.ops(keys)} keys over 1000 bins (32-byte values), three copies each, loaded straight onto their
replicas. Then one backend is started and added (\`KeeperAdmin.AddBackend\`, what \`binring admin
add-backend\` calls), and, once that is complete, one of the original six is removed; then the same
again under the second foreground load. "Complete": the added backend is ready and no keeper has
work left (the former holders dropped what they gave up); the removed one has left every keeper's
list. Keepers at their defaults (rebalance rate
${fmt.ops(DEFAULT_KEEPER_TIMING.rebalanceBytesPerSecond / 1024)} KiB/s applied to the target, each source reading no faster). "Keys on
the new replicas" is what the added backend holds at the end against its ideal share (a seventh of
all copies). "Entries copied" counts every entry applied by the fill or the decommission's repair:
a stretch is read from its first holder alone where that one suffices, otherwise from every live
holder (HAZARDS.md 5), and each entry is applied once.
"Cluster cores" is the CPU every backend, redis-server and keeper used while the change ran (from
/proc), in cores, against the same measured idle; "extra CPU per entry copied" is that difference
over the change's duration divided by the entries copied: what a move costs per entry, with far less
noise than its latency. "Machine cores busy" is every CPU's time not idle (from /proc/stat: every
process, the kernel, and time the hypervisor took for others), of the machine's cores: where it
nears all of them, every call queues, whichever process did the work. Under the closed loop the foreground does less while the move runs, so
there it reads low; the paced load's figure is the one to compare between builds.

Foreground, on ${FOREGROUND} bins of its own, a set then a get of each key, in the bench's process:
a **closed loop** of one caller per bin takes all the machine gives, so it measures throughput, and
its latency is mostly queueing behind every process of the cluster on the shared cores; a
**paced** load issues calls at ${Math.round(PACED_SHARE * 100)}% of the closed loop's idle throughput
whether or not earlier ones completed, latency counted from when each call was due, so it measures
what a caller below saturation sees. Before anything is measured the closed loop ${WARM_UP_RULE}
(here ${fmt.ops(warmUpMs)} ms). Each load is measured idle for ${fmt.ops(idleMs / 1000)} s (as long as the goal lets a move take: a
shorter idle window catches or misses this machine's occasional bursts, a p99 of a different sample) just before each pair of changes, and
each pair runs ${runs} time(s) per load (\`--runs\`), each time removing another of the original
six; idle, one run after another:

- ${idleLine(closed, closedPairs)}
- ${idleLine(paced, pacedPairs)}

The median of the runs, each p99 against the idle p99 measured just before it:

| change | foreground | complete after (ms), median | p99 vs idle, median | every run |
| --- | --- | --- | --- | --- |
${[closedPairs, pacedPairs]
  .flatMap((pairs, i) => [0, 1].map((which) => medianLine(i === 0 ? closed : paced, pairs, which as 0 | 1)))
  .join("\n")}

Every run:

${table(header, [...rows(closed, closedPairs), ...rows(paced, pacedPairs)])}

### The paced load second by second, first run

Each second's calls by when they were due, their p99, and the cores each part of the cluster used
in that second (from /proc; the moving backend is the one added or removed, the bench process
runs the foreground and asks the keepers for progress every ${COMPLETION_POLL_MS} ms). Idle, just before:

${pacedPairs[0]!.idle.timeline}

Adding a backend, from the AddBackend call until the change is complete:

${pacedPairs[0]!.changes[0].timeline}

Removing one of the original six:

${pacedPairs[0]!.changes[1].timeline}

${plainLoadMarkdown(burns, addCores, pacedAdds, idleMs)}`,
    };
  } finally {
    await client.close();
    await binring.cluster.stop();
  }
}

/** The foreground measured idle, then a backend added and one of the originals removed under it. */
interface Pair {
  idle: Measurement & { timeline: string };
  changes: [Change, Change];
}

async function pair(
  binring: Binring,
  foreground: Foreground,
  leaving: string,
  ideal: number,
  idleMs: number,
): Promise<Pair> {
  const idleLoad = await idle(binring, foreground, idleMs);
  const added = await add(binring, foreground, ideal);
  return { idle: idleLoad, changes: [added, await remove(binring, foreground, leaving, ideal)] };
}

async function add(binring: Binring, foreground: Foreground, ideal: number): Promise<Change> {
  const added = await binring.cluster.startExtraBackend();
  const change = await during(
    binring,
    foreground,
    added,
    () => addBackend(binring.cluster.keepers[0]!, added, ""),
    async () => {
      const status = await clusterStatus(binring);
      const backend = status.backends.find((b) => b.address === added);
      return backend?.state === "ready" && status.repairs.length === 0 ? status : undefined;
    },
  );
  const after = await clusterStatus(binring);
  const onNew = after.backends.find((b) => b.address === added)?.keys ?? 0;
  return {
    name: `add 1 to ${BACKENDS}`,
    ms: change.ms,
    onNew: `${fmt.ops(onNew)} (${fmt.times(onNew, ideal)} of ideal ${fmt.ops(ideal)})`,
    copied: copiedFor(after, added),
    during: change.during,
    timeline: change.timeline,
  };
}

async function remove(
  binring: Binring,
  foreground: Foreground,
  leaving: string,
  ideal: number,
): Promise<Change> {
  const change = await during(
    binring,
    foreground,
    leaving,
    () => removeBackend(binring.cluster.keepers[0]!, leaving),
    async () => {
      const status = await clusterStatus(binring);
      return status.backends.every((b) => b.address !== leaving) && status.repairs.length === 0
        ? status
        : undefined;
    },
  );
  return {
    name: `remove 1 of ${BACKENDS + 1}`,
    ms: change.ms,
    onNew: `${fmt.ops(ideal)} (ideal: its share)`,
    copied: copiedFor(await clusterStatus(binring), leaving),
    during: change.during,
    timeline: change.timeline,
  };
}

function copiedFor(status: Awaited<ReturnType<typeof clusterStatus>>, backend: string): number {
  return status.completedRepairs.filter((r) => r.backend === backend).reduce((sum, r) => sum + r.entries, 0);
}

/** Starts a change, runs the foreground load until `complete` says it is done, and measures both. */
async function during<T>(
  binring: Binring,
  foreground: Foreground,
  moving: string,
  start: () => Promise<unknown>,
  complete: () => Promise<T | undefined>,
): Promise<{ ms: number; during: Measurement; timeline: string }> {
  const cpuBefore = cpuReadings(binring);
  const startedAt = performance.now();
  const timeline = new MoveTimeline(() => roles(binring, moving), startedAt);
  await start();
  let done = false;
  const load = foreground.run(() => done, timeline.observe);
  try {
    await waitFor("the change to complete", complete, {
      timeoutMs: CHANGE_TIMEOUT_MS,
      intervalMs: COMPLETION_POLL_MS,
    });
  } finally {
    done = true;
    timeline.stop();
  }
  const ms = performance.now() - startedAt;
  progress(
    `rebalance: a change of ${binring.cluster.addresses.length} backends complete in ${fmt.ops(ms)} ms (${foreground.label})`,
  );
  const raw = await load;
  return {
    ms,
    during: measured(raw, cpuBefore, cpuReadings(binring), performance.now() - startedAt),
    timeline: timeline.markdown(),
  };
}

/** The CPU a change used beyond the cluster's idle rate over the same time, per entry it copied. */
function extraMicrosPerEntry(change: Change, idleLoad: Measurement): number {
  const idleMicros = idleLoad.cores * change.during.wallMs * 1000;
  return Math.max(0, change.during.cpuMicros - idleMicros) / change.copied;
}
