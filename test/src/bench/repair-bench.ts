// `npm run bench -- repair`: with 6 backends and 1 keeper (production timing),
// fill the cluster until each backend holds N keys, SIGKILL one backend with
// its Redis, and time detection and the return to three copies.
import { BinClient } from "@binring/client";
import { keeperStatus } from "../support/keeper-status.js";
import { LocalCluster } from "../support/local-cluster.js";
import { waitFor } from "../support/wait-for.js";
import { fmt, table } from "./measure.js";
import { type BenchSettings, progress } from "./settings.js";

const BACKENDS = 6;
const COPIES = 3;
const WRITES_IN_FLIGHT = 512;

export async function repairBench(settings: BenchSettings): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const keysPerBackend of settings.quick ? [2_000] : [10_000, 100_000]) {
    rows.push(await measureRepair(keysPerBackend));
  }
  const header = [
    "keys per backend",
    "entries copied",
    "detected dead after (ms)",
    "repair took (ms)",
    "three copies again after kill (ms)",
  ];
  return `## Repair after SIGKILL of one of ${BACKENDS} backends (keeper: 1 s heartbeat, 3 misses)\n\n${table(header, rows)}\n`;
}

async function measureRepair(keysPerBackend: number): Promise<(string | number)[]> {
  const cluster = await LocalCluster.start({ backends: BACKENDS, keepers: 1, keeperArgs: [] });
  const http = (await cluster.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers });
  try {
    await waitFor("the keeper to bootstrap", async () =>
      (await keeperStatus(http)).backends.every((b) => b.state === "ready"),
    );
    const keys = (keysPerBackend * BACKENDS) / COPIES;
    const value = "v".repeat(32);
    let written = 0;
    await Promise.all(
      Array.from({ length: WRITES_IN_FLIGHT }, async (_, worker) => {
        for (let i = worker; i < keys; i += WRITES_IN_FLIGHT) {
          await client.bin(`bin-${i % 1000}`).set(`key-${i}`, value);
          if (++written % 20_000 === 0)
            progress(`repair: loaded ${fmt.ops(written)} of ${fmt.ops(keys)} keys`);
        }
      }),
    );
    const victim = cluster.addresses[0]!;
    progress(`repair: killing ${victim} holding ~${fmt.ops(keysPerBackend)} keys`);
    const killedAt = performance.now();
    await cluster.kill(victim, { withRedis: true });
    await waitFor(
      "the victim to be declared dead",
      async () => (await keeperStatus(http)).backends.find((b) => b.address === victim)?.state === "dead",
      { timeoutMs: 30_000, intervalMs: 20 },
    );
    const detectedMs = performance.now() - killedAt;
    const status = await waitFor(
      "the repair to finish",
      async () => {
        const s = await keeperStatus(http);
        return s.repairs.length === 0 && s.completedRepairs.some((r) => r.kind === "repair") ? s : undefined;
      },
      { timeoutMs: 300_000, intervalMs: 20 },
    );
    const restoredMs = performance.now() - killedAt;
    const repair = status.completedRepairs.find((r) => r.kind === "repair")!;
    return [
      fmt.ops(keysPerBackend),
      fmt.ops(repair.entries),
      Math.round(detectedMs),
      repair.ms,
      Math.round(restoredMs),
    ];
  } finally {
    await client.close();
    await cluster.stop();
  }
}
