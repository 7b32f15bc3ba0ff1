// A backend that dies and comes back with its old Redis (stale data) never
// brings back a key deleted or a list element removed while it was away, even
// once the other backends have swept those tombstones: its keeper empties it
// before filling it.
import { type Bin, BinClient, StorageClient } from "@binring/client";
import { HashRing } from "@binring/core";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { LocalCluster, waitFor, waitForSettled } from "../support/index.js";

let cluster: LocalCluster | undefined;

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
  // Every other backend holds the bin now; wait until none of them keeps a tombstone.
  const others = cluster.members.filter((member) => member.address !== primary);
  const redises = others.map((member) => new Redis(member.redis.url));
  try {
    await waitFor("the live backends to sweep their tombstones", async () => {
      const counts = await Promise.all(redises.map((redis) => redis.zcard("gc")));
      return counts.every((count) => count === 0);
    });
  } finally {
    for (const redis of redises) redis.disconnect();
  }

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
