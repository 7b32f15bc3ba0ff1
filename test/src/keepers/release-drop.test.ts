// After a fill, the backend that stood in for the returning one drops the
// stretch it no longer holds. If that drop fails, the fill's intent stays open
// and the drop is tried again until it succeeds: a copy left behind would miss
// every deletion from then on and, once their tombstones are swept, bring
// deleted data back if the stretch ever returned to it.
import { BinClient, StorageClient } from "@binring/client";
import { HashRing } from "@binring/core";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { LocalCluster, waitFor, waitForSettled } from "../support/index.js";

let cluster: LocalCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

it("a stand-in whose release drop failed drops the stretch once it can", async () => {
  cluster = await LocalCluster.start({ backends: 4, keepers: 1 });
  const keeper = cluster.keeperProcesses[0]!;
  const http = (await keeper.waitForLine(/"http":"([^"]+)"/))[1]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers, viewRefreshMs: 200 });
  const bin = client.bin("released");
  const ring = new HashRing(cluster.addresses.map((id) => ({ id })));
  const primary = ring.replicasFor("released")[0]!;
  const standIn = ring.replicasFor("released", (id) => id !== primary)[2]!;
  const standInDirect = new StorageClient(standIn, { bin: "released" });
  const standInRedis = new Redis(cluster.members.find((member) => member.address === standIn)!.redis.url);
  try {
    await bin.set("k", "v");
    await cluster.kill(primary);
    await waitForSettled(http, { [primary]: "dead" });
    await waitFor("the stand-in to receive the bin", async () => (await standInDirect.get("k")) === "v");

    // Its Redis refuses writes (reads still work, so it keeps answering heartbeats): the drop fails.
    await standInRedis.config("SET", "min-replicas-to-write", "1");
    await cluster.restart(primary, { redis: "old" });
    await keeper.waitForLine(/drop failed; trying again/, 30_000);
    await standInRedis.config("SET", "min-replicas-to-write", "0");

    await waitFor("the stand-in to drop the bin", async () => (await standInDirect.get("k")) === null);
    await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
    expect(await bin.get("k")).toBe("v");
  } finally {
    standInRedis.disconnect();
    await Promise.all([standInDirect.close(), client.close()]);
  }
}, 90_000);
