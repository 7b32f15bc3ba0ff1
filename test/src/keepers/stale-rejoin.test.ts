// A backend that dies and comes back with its old Redis (stale data) never
// brings back a key deleted or a list element removed while it was away.
import { BinClient, StorageClient } from "@binring/client";
import { HashRing } from "@binring/core";
import { afterAll, expect, it } from "vitest";
import { LocalCluster, waitForSettled } from "../support/index.js";

let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

it("a stale backend does not resurrect deletions after it is filled", async () => {
  cluster = await LocalCluster.start({ backends: 4, keepers: 1 });
  const http = (await cluster.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers, viewRefreshMs: 200 });
  const bin = client.bin("stale");
  const primary = new HashRing(cluster.addresses.map((id) => ({ id }))).replicasFor("stale")[0]!;
  await bin.set("deleted", "old value");
  await bin.set("kept", "v1");
  for (const value of ["a", "b", "a"]) await bin.listAppend("list", value);

  await cluster.kill(primary);
  await waitForSettled(http, { [primary]: "dead" });
  await bin.set("deleted", "");
  expect(await bin.listRemove("list", "a")).toBe(2);
  await bin.set("kept", "v2");

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
  await Promise.all([direct.close(), client.close()]);
}, 60_000);
