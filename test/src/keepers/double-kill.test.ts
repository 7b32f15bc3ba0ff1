// Two backends killed at the same moment — a bin's primary and first backup —
// in the middle of a workload: no acknowledged write is lost, no caller sees
// an error, and the keeper restores three complete copies of every bin.
import { BinClient, StorageClient } from "@binring/client";
import { HashRing } from "@binring/core";
import { afterAll, expect, it } from "vitest";
import { LocalCluster, Workload, waitForSettled } from "../support/index.js";

let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

it("restores three copies after a bin's primary and first backup die together", async () => {
  cluster = await LocalCluster.start({ backends: 6, keepers: 1 });
  const http = (await cluster.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers, viewRefreshMs: 200 });
  const bins = Array.from({ length: 16 }, (_, i) => `bin-${i}`);
  const ring = new HashRing(cluster.addresses.map((id) => ({ id })));
  const [primary, firstBackup] = ring.replicasFor(bins[0]!) as [string, string];

  const workload = new Workload(client, { workers: 8, bins, keysPerWorker: 10 });
  workload.start();
  await workload.waitForOperations(500);
  const killedAt = performance.now();
  await Promise.all([
    cluster.kill(primary, { withRedis: true }),
    cluster.kill(firstBackup, { withRedis: true }),
  ]);
  await workload.waitForOperations(500);
  const settled = await waitForSettled(http, { [primary]: "dead", [firstBackup]: "dead" });
  const repairMs = Math.round(performance.now() - killedAt);
  await workload.stop();

  expect(workload.errors).toEqual([]);
  await workload.verify(client);

  // Three complete copies: every live replica of every bin, read directly, holds every acknowledged value.
  const alive = (id: string) => id !== primary && id !== firstBackup;
  const direct = new Map<string, StorageClient>();
  for (const [id, value] of workload.strings) {
    const [bin, key] = id.split("\u0000") as [string, string];
    const replicas = ring.replicasFor(bin, alive);
    expect(replicas).toHaveLength(3);
    for (const replica of replicas) {
      const name = `${replica}/${bin}`;
      if (!direct.has(name)) direct.set(name, new StorageClient(replica, { bin }));
      expect(await direct.get(name)!.get(key), `${bin}/${key} on ${replica}`).toBe(value);
    }
  }
  await Promise.all([...direct.values()].map((c) => c.close()));
  const repairs = settled.completedRepairs.filter((r) => r.kind === "repair");
  console.info(
    `double kill: dead and re-replicated ${repairMs} ms after the kill; repairs ${JSON.stringify(repairs)}`,
  );
  await client.close();
}, 120_000);
