// `npm run bench -- rebalance`: 6 backends holding N keys each (three copies
// of every key), then one backend added with the keepers' AddBackend (what
// `binring admin add-backend` calls) and, separately, one of the six removed.
// For each: the time until the change is complete, what moved against the
// ideal, and foreground sets and gets during the move against idle.
import { addBackend, BinClient, removeBackend } from "@binring/client";
import { DEFAULT_KEEPER_TIMING } from "@binring/keeper";
import { newHistogram, type RawMeasurement, summarise } from "@binring/load";
import { waitFor } from "../support/wait-for.js";
import { type Binring, clusterStatus, startBinring } from "./contenders.js";
import { fmt, table } from "./measure.js";
import { bulkLoad } from "./repair-bench.js";
import type { BenchResult } from "./result.js";
import { type BenchSettings, progress } from "./settings.js";

const BACKENDS = 6;
/** Foreground callers, each a closed loop of set then get on keys of their own. */
const FOREGROUND = 16;
/** How long a change may take before it is reported unfinished. */
const CHANGE_TIMEOUT_MS = 180_000;

export async function rebalanceBench(settings: BenchSettings): Promise<BenchResult> {
  const perBackend = settings.quick ? 5_000 : 100_000;
  // Each key is on three of the six backends.
  const keys = (perBackend * BACKENDS) / 3;
  const binring = await startBinring(BACKENDS, settings.keepers);
  const client = new BinClient({ backends: binring.cluster.addresses, keepers: binring.cluster.keepers });
  try {
    progress(`rebalance: loading ${fmt.ops(keys)} keys`);
    await bulkLoad(client, keys, BigInt((await clusterStatus(binring)).epoch));
    const idle = await foreground(client, settings.quick ? 1000 : 5000);
    progress(`rebalance: idle foreground ${fmt.ops(idle.opsPerSecond)} ops/s, p99 ${fmt.ms(idle.p99Ms)} ms`);

    const added = await binring.cluster.startExtraBackend();
    const add = await during(
      binring,
      client,
      () => addBackend(binring.cluster.keepers[0]!, added, ""),
      async () => {
        const status = await clusterStatus(binring);
        const backend = status.backends.find((b) => b.address === added);
        return backend?.state === "ready" && status.repairs.length === 0 ? status : undefined;
      },
    );
    const afterAdd = await clusterStatus(binring);
    const onNew = afterAdd.backends.find((b) => b.address === added)?.keys ?? 0;
    const addCopied = afterAdd.completedRepairs
      .filter((r) => r.backend === added)
      .reduce((sum, r) => sum + r.entries, 0);

    const leaving = binring.cluster.addresses[0]!;
    const remove = await during(
      binring,
      client,
      () => removeBackend(binring.cluster.keepers[0]!, leaving),
      async () => {
        const status = await clusterStatus(binring);
        return status.backends.every((b) => b.address !== leaving) && status.repairs.length === 0
          ? status
          : undefined;
      },
    );
    const afterRemove = await clusterStatus(binring);
    const removeCopied = afterRemove.completedRepairs
      .filter((r) => r.backend === leaving)
      .reduce((sum, r) => sum + r.entries, 0);

    // The ideal: the new backend holds its 1/7 share of all copies; removing one of 7 moves its 1/7.
    const idealAdd = (keys * 3) / (BACKENDS + 1);
    const rows = [
      [
        `add 1 to ${BACKENDS}`,
        fmt.ops(add.ms),
        `${fmt.ops(onNew)} (${fmt.times(onNew, idealAdd)} of ideal ${fmt.ops(idealAdd)})`,
        fmt.ops(addCopied),
        fmt.ops(add.during.opsPerSecond),
        fmt.ms(add.during.p99Ms),
        fmt.times(add.during.p99Ms, idle.p99Ms),
        add.during.errors,
      ],
      [
        `remove 1 of ${BACKENDS + 1}`,
        fmt.ops(remove.ms),
        `${fmt.ops(idealAdd)} (ideal: its share)`,
        fmt.ops(removeCopied),
        fmt.ops(remove.during.opsPerSecond),
        fmt.ms(remove.during.p99Ms),
        fmt.times(remove.during.p99Ms, idle.p99Ms),
        remove.during.errors,
      ],
    ];
    const header = [
      "change",
      "complete after (ms)",
      "keys on the new replicas",
      "entries copied",
      "foreground ops/s during",
      "p99 during (ms)",
      "p99 vs idle",
      "errors",
    ];
    return {
      markdown: `## Rebalance: add a backend to ${BACKENDS}, remove one, with ${fmt.ops(perBackend)} keys per backend

${fmt.ops(keys)} keys over 1000 bins (32-byte values), three copies each, loaded straight onto their
replicas. Then one backend is started and added (\`KeeperAdmin.AddBackend\`, what \`binring admin
add-backend\` calls), and, once that is complete, one of the original six is removed. "Complete":
the added backend is ready and no keeper has work left (the former holders dropped what they gave
up); the removed one has left every keeper's list. Keepers at their defaults (rebalance rate
${fmt.ops(DEFAULT_KEEPER_TIMING.rebalanceBytesPerSecond / 1024)} KiB/s read from the sources). "Keys on
the new replicas" is what the added backend holds at the end against its ideal share (a seventh of
all copies). "Entries copied" counts every entry applied by the fill or the decommission's repair:
a stretch is read from every live holder (HAZARDS.md 5), and each entry is applied once. Foreground: ${FOREGROUND} callers in one process, each a
closed loop of a set then a get on its own keys, during the change against the same load idle just
before (idle: ${fmt.ops(idle.opsPerSecond)} ops/s, p50 ${fmt.ms(idle.p50Ms)} ms, p99 ${fmt.ms(idle.p99Ms)} ms).

${table(header, rows)}
`,
    };
  } finally {
    await client.close();
    await binring.cluster.stop();
  }
}

/** Starts a change, runs the foreground load until `complete` says it is done, and measures both. */
async function during<T>(
  binring: Binring,
  client: BinClient,
  start: () => Promise<unknown>,
  complete: () => Promise<T | undefined>,
): Promise<{ ms: number; during: ReturnType<typeof summarise> }> {
  const startedAt = performance.now();
  await start();
  let done = false;
  const load = foregroundUntil(client, () => done);
  try {
    await waitFor("the change to complete", complete, { timeoutMs: CHANGE_TIMEOUT_MS, intervalMs: 50 });
  } finally {
    done = true;
  }
  const ms = performance.now() - startedAt;
  progress(
    `rebalance: a change of ${binring.cluster.addresses.length} backends complete in ${fmt.ops(ms)} ms`,
  );
  const raw = await load;
  const result = summarise(raw);
  raw.histogram.destroy();
  return { ms, during: result };
}

async function foreground(client: BinClient, ms: number): Promise<ReturnType<typeof summarise>> {
  const endAt = performance.now() + ms;
  const raw = await foregroundUntil(client, () => performance.now() >= endAt);
  const result = summarise(raw);
  raw.histogram.destroy();
  return result;
}

/** FOREGROUND closed loops of a set then a get, until `stop` says so; latencies in µs. */
async function foregroundUntil(client: BinClient, stop: () => boolean): Promise<RawMeasurement> {
  const histogram = newHistogram();
  let completed = 0;
  let errors = 0;
  const startedAt = performance.now();
  const caller = async (id: number) => {
    const bin = client.bin(`foreground-${id}`);
    for (let i = 0; !stop(); i++) {
      const started = performance.now();
      try {
        if (i % 2 === 0) await bin.set(`k${i % 100}`, "v".repeat(32));
        else await bin.get(`k${(i - 1) % 100}`);
        histogram.recordValue(Math.max(1, Math.round((performance.now() - started) * 1000)));
        completed++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: FOREGROUND }, (_, id) => caller(id)));
  return { histogram, completed, errors, durationMs: performance.now() - startedAt };
}
