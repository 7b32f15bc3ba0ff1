// Zone-aware placement end to end: clients (BinClient.fromConfig) and a keeper
// read the same cluster file with zones; after a backend dies mid-workload,
// every bin is back on three replicas in three zones, each holding every
// acknowledged value. Fails if the client or the keeper ignored the zones:
// the replicas the zoned ring names would then lack the data.
import { readFileSync } from "node:fs";
import { BinClient, StorageClient } from "@binring/client";
import { HashRing, parseClusterConfig, ringMembers } from "@binring/core";
import { afterAll, expect, it } from "vitest";
import { LocalCluster, Workload, waitForSettled } from "../support/index.js";

let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

it("keeps every bin's three copies in three zones through a death and its repair", async () => {
  // Default keeper timing: this test is about placement, not detection speed, so it tolerates a loaded machine.
  cluster = await LocalCluster.start({
    backends: 6,
    keepers: 1,
    keeperArgs: [],
    zoneOf: (i) => `zone-${i % 3}`,
  });
  const http = (await cluster.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])), 60_000);
  const file = parseClusterConfig(JSON.parse(readFileSync(cluster.configPath, "utf8")));
  const ring = new HashRing(ringMembers(file.backends, file.zones));
  const client = await BinClient.fromConfig(cluster.configPath, { viewRefreshMs: 200 });
  const bins = Array.from({ length: 24 }, (_, i) => `bin-${i}`);
  // The victim is a backup of the first bin, so the repair must pick its stand-in by zone.
  const victim = ring.replicasFor(bins[0]!)[1]!;

  const workload = new Workload(client, { workers: 6, bins, keysPerWorker: 10 });
  workload.start();
  await workload.waitForOperations(300);
  await cluster.kill(victim, { withRedis: true });
  await workload.waitForOperations(300);
  await waitForSettled(http, { [victim]: "dead" }, 60_000);
  await workload.stop();
  expect(workload.errors).toEqual([]);
  await workload.verify(client);

  const alive = (id: string) => id !== victim;
  const direct = new Map<string, StorageClient>();
  for (const [id, value] of workload.strings) {
    const [bin, key] = id.split("\u0000") as [string, string];
    const replicas = ring.replicasFor(bin, alive);
    expect(new Set(replicas.map((replica) => file.zones![replica])).size).toBe(3);
    for (const replica of replicas) {
      const name = `${replica}/${bin}`;
      if (!direct.has(name)) direct.set(name, new StorageClient(replica, { bin }));
      expect(await direct.get(name)!.get(key), `${bin}/${key} on ${replica}`).toBe(value);
    }
  }
  await Promise.all([...direct.values()].map((c) => c.close()));
  await client.close();
}, 120_000);
