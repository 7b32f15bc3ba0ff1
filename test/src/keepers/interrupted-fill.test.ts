// A fill copies a backend's bins one after the other, so whatever happens to
// the backend part way through can undo the copies already made or let
// writes be acknowledged without it in bins already copied. Either way that
// fill must not make it ready: the keeper fills it again from the start.
// Each case interrupts a fill of 3,000 bins (one entry per copy message, so
// it lasts long enough), waits for the backend to be ready, and reads every
// bin from it directly.
import { BinClient, StorageClient } from "@binring/client";
import { afterEach, expect, it } from "vitest";
import {
  type ClusterMember,
  FAST_KEEPER_ARGS,
  keeperStatus,
  LocalCluster,
  waitFor,
  waitForSettled,
} from "../support/index.js";

const BINS = Array.from({ length: 3000 }, (_, i) => `bin-${i}`);

let cluster: LocalCluster | undefined;
let client: BinClient | undefined;
afterEach(async () => {
  await client?.close();
  await cluster?.stop();
});

async function startWithData(): Promise<{ cluster: LocalCluster; http: string; client: BinClient }> {
  cluster = await LocalCluster.start({
    backends: 3,
    keepers: 1,
    keeperArgs: [...FAST_KEEPER_ARGS, "--copy-batch", "1"],
  });
  const http = cluster.keeperHttp[0]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
  client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers, viewRefreshMs: 100 });
  await writeEveryBin(client, "first");
  return { cluster, http, client };
}

/** Three backends: every bin has a copy on each. */
async function writeEveryBin(writer: BinClient, round: string): Promise<void> {
  for (let i = 0; i < BINS.length; i += 500) {
    await Promise.all(BINS.slice(i, i + 500).map((bin) => writer.bin(bin).set("k", `${round} ${bin}`)));
  }
}

/** Kills a member's Redis and starts it again empty; resolves once its backend has noticed. */
async function restartRedisEmpty(member: ClusterMember): Promise<void> {
  const noticed = member.backend!.child.waitForLine(/store restarted/, 15_000, false);
  await member.redis.kill("SIGKILL");
  await member.redis.restart({ empty: true });
  await noticed;
}

function waitForFillUnderWay(http: string): Promise<unknown> {
  return waitFor(
    "the keeper to be part way through filling the backend",
    async () => {
      const fill = (await keeperStatus(http)).repairs.find((r) => r.kind === "fill" && r.state === "running");
      return (fill?.entriesCopied ?? 0) > 0;
    },
    { timeoutMs: 20_000, intervalMs: 20 },
  );
}

/** Once the keeper reports the member ready, the bins whose value on it is not `round`'s. */
async function missingOnceReady(http: string, member: ClusterMember, round: string): Promise<string[]> {
  await waitForSettled(http, { [member.address]: "ready" }, 60_000);
  const missing: string[] = [];
  for (const bin of BINS) {
    const copy = new StorageClient(member.address, { bin });
    if ((await copy.get("k")) !== `${round} ${bin}`) missing.push(bin);
    await copy.close();
  }
  return missing;
}

it("a Redis restart in the middle of a fill sends the keeper back to fill from the start", async () => {
  const { cluster, http } = await startWithData();
  const [victim] = cluster.members;
  await restartRedisEmpty(victim!);
  await waitForFillUnderWay(http);
  // Frozen mid-fill: what it copied so far goes with the second restart, and it copies the rest after.
  const keeper = cluster.keeperProcesses[0]!;
  keeper.signal("SIGSTOP");
  await restartRedisEmpty(victim!);
  keeper.signal("SIGCONT");
  const missing = await missingOnceReady(http, victim!, "first");
  expect(missing.length, `missing on the refilled backend: ${missing.slice(0, 5).join(", ")}`).toBe(0);
}, 120_000);

it("a backend declared dead in the middle of its fill is filled again from the start", async () => {
  const { cluster, http, client } = await startWithData();
  const [victim] = cluster.members;
  await restartRedisEmpty(victim!);
  await waitForFillUnderWay(http);
  // Paused past detection, it comes back the same incarnation; the copy it was sent completes then.
  const paused = victim!.backend!.child;
  paused.signal("SIGSTOP");
  await waitFor(
    "the keeper to declare the paused backend dead",
    async () =>
      (await keeperStatus(http)).backends.find((b) => b.address === victim!.address)?.state === "dead",
    { timeoutMs: 20_000, intervalMs: 20 },
  );
  // Acknowledged by the other two alone, in bins the fill had copied already too.
  await writeEveryBin(client, "second");
  paused.signal("SIGCONT");
  const missing = await missingOnceReady(http, victim!, "second");
  expect(missing.length, `stale on the refilled backend: ${missing.slice(0, 5).join(", ")}`).toBe(0);
}, 120_000);
