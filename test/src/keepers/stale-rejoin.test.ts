// A backend that dies and comes back with its old Redis (stale data) never
// brings back a key deleted or a list element removed while it was away, even
// once the other backends have swept those tombstones: its keeper empties it
// before filling it, and again if it restarts during that fill on an older store.
import { type Bin, BinClient, StorageClient } from "@binring/client";
import { HashRing } from "@binring/core";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { keeperStatus, LocalCluster, MULTI_KEEPER_ARGS, waitFor, waitForSettled } from "../support/index.js";

let cluster: LocalCluster | undefined;

/** Waits until no backend but `away` keeps a tombstone (every other one holds the bins here). */
async function waitForSweep(running: LocalCluster, away: string): Promise<void> {
  const others = running.members.filter((member) => member.address !== away);
  const redises = others.map((member) => new Redis(member.redis.url));
  try {
    await waitFor("the live backends to sweep their tombstones", async () => {
      const counts = await Promise.all(redises.map((redis) => redis.zcard("gc")));
      return counts.every((count) => count === 0);
    });
  } finally {
    for (const redis of redises) redis.disconnect();
  }
}

/** Writes, kills the bin's primary, and deletes a key, removes a list value and overwrites a key while it is dead. */
async function deleteWhileAway(
  running: LocalCluster,
  http: string,
  bin: Bin,
  primary: string,
): Promise<void> {
  await bin.set("deleted", "old value");
  await bin.set("kept", "v1");
  for (const value of ["a", "b", "a"]) await bin.listAppend("list", value);
  await running.kill(primary);
  await waitForSettled(http, { [primary]: "dead" });
  await bin.set("deleted", "");
  expect(await bin.listRemove("list", "a")).toBe(2);
  await bin.set("kept", "v2");
}
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

it("a stale backend does not resurrect deletions after it is filled", async () => {
  cluster = await LocalCluster.start({ backends: 4, keepers: 1 });
  const http = (await cluster.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers, viewRefreshMs: 200 });
  const bin = client.bin("stale");
  const ring = new HashRing(cluster.addresses.map((id) => ({ id })));
  const primary = ring.replicasFor("stale")[0]!;
  // The backend that holds the bin while the primary is away.
  const standIn = ring.replicasFor("stale", (id) => id !== primary)[2]!;
  await deleteWhileAway(cluster, http, bin, primary);

  await cluster.restart(primary, { redis: "old" });
  await waitForSettled(http, { [primary]: "ready" });
  expect(await bin.get("deleted")).toBeNull();
  expect(await bin.keys()).toEqual(["kept"]);
  expect(await bin.get("kept")).toBe("v2");
  expect(await bin.listGet("list")).toEqual(["b"]);
  // The rejoined backend itself, read directly, holds the deletions too.
  const direct = new StorageClient(primary, { bin: "stale" });
  expect(await direct.get("deleted")).toBeNull();
  expect(await direct.listGet("list")).toEqual(["b"]);
  expect(await direct.get("kept")).toBe("v2");
  // The stand-in held the bin while the primary was away; once the primary is filled it drops it.
  const standInDirect = new StorageClient(standIn, { bin: "stale" });
  await waitFor("the stand-in to drop the bin", async () => (await standInDirect.get("kept")) === null);
  expect(await standInDirect.listGet("list")).toEqual([]);
  await Promise.all([direct.close(), standInDirect.close(), client.close()]);
}, 60_000);

it("a stale backend does not resurrect deletions whose tombstones were swept while it was away", async () => {
  cluster = await LocalCluster.start({ backends: 4, keepers: 1, backendArgs: ["--tombstone-ttl", "1s"] });
  const http = (await cluster.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers, viewRefreshMs: 200 });
  const bin = client.bin("swept");
  const primary = new HashRing(cluster.addresses.map((id) => ({ id }))).replicasFor("swept")[0]!;
  await deleteWhileAway(cluster, http, bin, primary);
  await waitForSweep(cluster, primary);

  await cluster.restart(primary, { redis: "old" });
  await waitForSettled(http, { [primary]: "ready" });
  const direct = new StorageClient(primary, { bin: "swept" });
  try {
    expect(await direct.get("deleted")).toBeNull();
    expect(await direct.listGet("list")).toEqual(["b"]);
    expect(await direct.get("kept")).toBe("v2");
    expect(await bin.get("deleted")).toBeNull();
    expect(await bin.keys()).toEqual(["kept"]);
    expect(await bin.listGet("list")).toEqual(["b"]);
  } finally {
    await Promise.all([direct.close(), client.close()]);
  }
}, 60_000);

it("a backend that restarts on a store older than its empty, during the fill after its death, is emptied again", async () => {
  // Three backends: every bin is on each, so the fill copies all of them, one entry per message: it lasts.
  cluster = await LocalCluster.start({
    backends: 3,
    keepers: 1,
    // Three backends under a long fill: the slower multi-keeper timing keeps a loaded machine's stalls from passing for deaths.
    keeperArgs: [...MULTI_KEEPER_ARGS, "--copy-batch", "1"],
    backendArgs: ["--tombstone-ttl", "1s"],
  });
  const http = cluster.keeperHttp[0]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers, viewRefreshMs: 200 });
  const bin = client.bin("swept");
  await bin.set("deleted", "old value");
  const fillers = Array.from({ length: 1000 }, (_, i) => client.bin(`filler-${i}`));
  await Promise.all(fillers.map((filler) => filler.set("k", "v")));
  const victim = cluster.members[0]!;
  // A backup of its Redis as it is now, holding the value about to be deleted.
  const victimRedis = new Redis(victim.redis.url);
  // A key can vanish between KEYS and DUMP (the backend sweeps tombstones): its dump is null, and it is not in the backup.
  const dumped = await Promise.all(
    (await victimRedis.keys("*")).map(async (key) => ({ key, dump: await victimRedis.dumpBuffer(key) })),
  );
  const backup = dumped.filter((entry): entry is { key: string; dump: Buffer } => entry.dump !== null);
  try {
    await cluster.kill(victim.address);
    await waitForSettled(http, { [victim.address]: "dead" }, 60_000);
    await bin.set("deleted", "");
    await waitForSweep(cluster, victim.address);
    await cluster.restart(victim.address, { redis: "old" });
    await waitFor(
      "the keeper to be part way through filling the emptied backend",
      async () => {
        const fill = (await keeperStatus(http)).repairs.find(
          (r) => r.kind === "fill" && r.state === "running",
        );
        return (fill?.entriesCopied ?? 0) > 0;
      },
      { timeoutMs: 20_000, intervalMs: 20 },
    );
    // Frozen mid-fill while the backend restarts on the backup, from before its death and its empty.
    const keeper = cluster.keeperProcesses[0]!;
    keeper.signal("SIGSTOP");
    await cluster.kill(victim.address);
    await victimRedis.flushall();
    await Promise.all(backup.map(({ key, dump }) => victimRedis.restore(key, 0, dump)));
    await cluster.restart(victim.address, { redis: "old" });
    keeper.signal("SIGCONT");
    await waitForSettled(http, { [victim.address]: "ready" }, 60_000);
    const direct = new StorageClient(victim.address, { bin: "swept" });
    try {
      expect(await direct.get("deleted")).toBeNull();
    } finally {
      await direct.close();
    }
    expect(await bin.get("deleted")).toBeNull();
  } finally {
    victimRedis.disconnect();
    await client.close();
  }
}, 120_000);
