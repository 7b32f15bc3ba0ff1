// `npm run bench -- repair`: with 6 backends and the keepers `binring dev`
// starts (production timing), load N keys, SIGKILL one backend with its
// Redis, and time detection and the return to three copies.
import { BinClient } from "@binring/client";
import { type Entry, newWriterId, ringPoint, StaleEpochError } from "@binring/core";
import { type KeeperStatus, keeperStatus } from "../support/keeper-status.js";
import { waitFor } from "../support/wait-for.js";
import { clusterStatus, startBinring } from "./contenders.js";
import { fmt, table } from "./measure.js";
import type { BenchResult } from "./result.js";
import { type BenchSettings, progress } from "./settings.js";

const BACKENDS = 6;
const BINS = 1000;
/** Entries per Apply call while loading, as the keeper copies. */
const LOAD_BATCH = 2000;
const APPLIES_IN_FLIGHT = 6;
/** How long one repair may take before it is reported unfinished, so a full run stays bounded. */
const REPAIR_TIMEOUT_MS = 180_000;

export async function repairBench(settings: BenchSettings): Promise<BenchResult> {
  const rows: (string | number)[][] = [];
  for (const keys of settings.quick ? [10_000] : [10_000, 100_000, 1_000_000]) {
    rows.push(await measureRepair(keys, settings.keepers));
  }
  const header = [
    "keys in the cluster",
    "entries copied",
    "detected dead after (ms)",
    "repair took (ms)",
    "three copies again after kill (ms)",
    "copied entries/s",
    "other backends declared dead meanwhile",
  ];
  return {
    markdown: `## Repair time vs data size: SIGKILL one of ${BACKENDS} backends (keeper: 1 s heartbeat, 3 misses)

Keys are spread over ${BINS} bins, 32-byte values, three copies each (so each backend holds about half
the keys). They are loaded straight onto each bin's three replicas with \`Apply\` (the call the keeper
copies with), stamped as a client would, because loading a million keys through today's write path
would take longer than the repair being measured. No client load runs during the repair. The last
column counts backends other than the killed one that the keeper showed dead at some point during
the repair (a busy backend missing heartbeats while it copies): it should be 0.

${table(header, rows)}
`,
  };
}

/** Writes `keys` set entries onto every replica of their bins, in batches. */
export async function bulkLoad(client: BinClient, keys: number, initialEpoch: bigint): Promise<void> {
  const writer = newWriterId();
  let epoch = initialEpoch;
  // Keepers may still raise the view epoch just after bootstrap: retry with the backend's.
  const applyAt = async (address: string, entries: Entry[]): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.channel(address).apply(entries, epoch, 60_000);
        return;
      } catch (error) {
        if (!(error instanceof StaleEpochError) || attempt >= 10) throw error;
        if (error.currentEpoch > epoch) epoch = error.currentEpoch;
      }
    }
  };
  const pending = new Map<string, Entry[]>();
  const inFlight = new Set<Promise<unknown>>();
  const flush = async (address: string, entries: Entry[]) => {
    const apply = applyAt(address, entries);
    inFlight.add(apply);
    void apply.finally(() => inFlight.delete(apply)).catch(() => undefined);
    if (inFlight.size >= APPLIES_IN_FLIGHT) await Promise.race(inFlight);
  };
  // A client with keepers places nothing until their view arrived.
  await waitFor("the client's first view", () => client.placement(0).replicas.length > 0);
  const replicas = Array.from({ length: BINS }, (_, b) => client.placement(ringPoint(`bin-${b}`)).replicas);
  for (let i = 0; i < keys; i++) {
    const bin = `bin-${i % BINS}`;
    const entry: Entry = {
      bin,
      key: `key-${i}`,
      kind: "set",
      value: "v".repeat(32),
      stamp: { clock: BigInt(i + 1), writer, seq: i },
    };
    for (const address of replicas[i % BINS]!) {
      const batch = pending.get(address) ?? [];
      batch.push(entry);
      pending.set(address, batch);
      if (batch.length >= LOAD_BATCH) {
        pending.delete(address);
        await flush(address, batch);
      }
    }
    if ((i + 1) % 200_000 === 0) progress(`repair: loaded ${fmt.ops(i + 1)} of ${fmt.ops(keys)} keys`);
  }
  for (const [address, batch] of pending) await flush(address, batch);
  await Promise.all(inFlight);
}

async function measureRepair(keys: number, keepers: number): Promise<(string | number)[]> {
  const binring = await startBinring(BACKENDS, keepers);
  const { cluster, statusHttp } = binring;
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers });
  try {
    progress(`repair: loading ${fmt.ops(keys)} keys`);
    // The keepers' current view: backends refuse Apply calls from older ones.
    await bulkLoad(client, keys, BigInt((await keeperStatus(statusHttp)).epoch));
    const victim = cluster.addresses[0]!;
    progress(`repair: killing ${victim}`);
    const killedAt = performance.now();
    await cluster.kill(victim, { withRedis: true });
    await waitFor(
      "the victim to be declared dead",
      async () => (await clusterStatus(binring)).backends.find((b) => b.address === victim)?.state === "dead",
      { timeoutMs: 30_000, intervalMs: 20 },
    );
    const detectedMs = performance.now() - killedAt;
    let reportedAt = performance.now();
    let last: KeeperStatus | undefined;
    /** Backends other than the victim that some status poll showed dead. */
    const seenDead = new Set<string>();
    const othersDead = () => seenDead.size;
    let status: KeeperStatus | undefined;
    try {
      status = await waitFor(
        "the repair to finish",
        async () => {
          const s = await clusterStatus(binring);
          last = s;
          for (const b of s.backends) if (b.address !== victim && b.state === "dead") seenDead.add(b.address);
          if (performance.now() - reportedAt >= 5000) {
            reportedAt = performance.now();
            const copied = s.repairs.reduce((sum, r) => sum + (r.entriesCopied ?? 0), 0);
            progress(
              `repair: ${fmt.ops(copied)} entries copied by running repairs, ${s.repairs.length} queued or running, epoch ${s.epoch}`,
            );
          }
          return s.repairs.length === 0 && s.completedRepairs.some((r) => r.kind === "repair")
            ? s
            : undefined;
        },
        { timeoutMs: REPAIR_TIMEOUT_MS, intervalMs: 20 },
      );
    } catch {
      // Reported, not thrown: the other sizes and benchmarks still run.
      progress(
        `repair: ${fmt.ops(keys)} keys: not back to three copies within ${REPAIR_TIMEOUT_MS / 1000} s`,
      );
      return [
        fmt.ops(keys),
        "–",
        Math.round(detectedMs),
        `not finished within ${REPAIR_TIMEOUT_MS / 1000} s (${last?.repairs.length ?? "?"} repairs/fills queued or running, view epoch ${last?.epoch ?? "?"})`,
        "–",
        "–",
        othersDead(),
      ];
    }
    const restoredMs = performance.now() - killedAt;
    const repair = status.completedRepairs.find((r) => r.kind === "repair")!;
    progress(`repair: ${fmt.ops(keys)} keys: ${fmt.ops(repair.entries)} entries copied in ${repair.ms} ms`);
    return [
      fmt.ops(keys),
      fmt.ops(repair.entries),
      Math.round(detectedMs),
      repair.ms,
      Math.round(restoredMs),
      fmt.ops(repair.ms > 0 ? (repair.entries * 1000) / repair.ms : 0),
      othersDead(),
    ];
  } finally {
    await client.close();
    await cluster.stop();
  }
}
