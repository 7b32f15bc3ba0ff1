// Replicated bins survive backend deaths: with 6 backends, SIGKILL backends
// (with their redis-servers) in the middle of a concurrent workload; no caller
// sees an error and every acknowledged write reads back, including after a
// second death that takes two of a bin's three copies.
import { BinClient } from "@binring/client";
import { HashRing } from "@binring/core";
import { afterEach, describe, expect, it } from "vitest";
import { LocalCluster, Workload } from "../support/index.js";

const BINS = Array.from({ length: 12 }, (_, i) => `bin-${i}`);

describe.each([
  ["both backups", [1, 2]],
  ["the primary and its first backup", [0, 1]],
] as const)("losing %s of a bin", (_name, doomedPositions) => {
  let cluster: LocalCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
  });

  it("loses no acknowledged write and returns no error", async () => {
    cluster = await LocalCluster.start({ backends: 6 });
    const client = new BinClient({ backends: cluster.addresses });
    const ring = new HashRing(cluster.addresses.map((id) => ({ id })));
    const target = BINS[0]!;
    const doomed = doomedPositions.map((position) => ring.replicasFor(target)[position]!);

    const workload = new Workload(client, { workers: 8, bins: BINS, keysPerWorker: 5 });
    workload.start();
    await workload.waitForOperations(300);
    await cluster.kill(doomed[0]!, { withRedis: true });
    await workload.waitForOperations(300);
    await cluster.kill(doomed[1]!, { withRedis: true });
    await workload.waitForOperations(300);
    await workload.stop();

    expect(workload.errors).toEqual([]);
    const reader = new BinClient({ backends: cluster.addresses });
    await workload.verify(reader);
    await Promise.all([client.close(), reader.close()]);
  }, 120_000);
});

describe("stamps after a takeover", () => {
  let cluster: LocalCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
  });

  it("a write after an acknowledged write wins, from a fresh client, once the primary died", async () => {
    cluster = await LocalCluster.start({ backends: 4 });
    const ring = new HashRing(cluster.addresses.map((id) => ({ id })));
    const [primary, firstBackup, secondBackup] = ring.replicasFor("takeover");
    const first = new BinClient({ backends: cluster.addresses });
    // Push the bin's clocks far above the others', so the first write's stamp is large.
    await first.bin("takeover").clock(1_000_000_000n);
    await first.bin("takeover").set("k", "first");
    await first.bin("takeover").listAppend("l", "first");
    await cluster.kill(primary!, { withRedis: true });

    // A client that has seen no clock: only the surviving replicas can lift its stamp above the first.
    const second = new BinClient({ backends: cluster.addresses });
    await second.bin("takeover").set("k", "second");
    expect(await second.bin("takeover").listRemove("l", "first")).toBe(1);

    const { StorageClient } = await import("@binring/client");
    for (const address of [firstBackup!, secondBackup!]) {
      const direct = new StorageClient(address, { bin: "takeover" });
      expect(await direct.get("k")).toBe("second");
      expect(await direct.listGet("l")).toEqual([]);
      await direct.close();
    }
    await Promise.all([first.close(), second.close()]);
  }, 60_000);
});

describe("readiness", () => {
  let cluster: LocalCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
  });

  it("a backend restarted on an empty Redis is written to but never read from", async () => {
    cluster = await LocalCluster.start({ backends: 4 });
    const client = new BinClient({ backends: cluster.addresses, probeIntervalMs: 100 });
    const ring = new HashRing(cluster.addresses.map((id) => ({ id })));
    const bin = client.bin("ready-or-not");
    const primary = ring.replicasFor("ready-or-not")[0]!;
    for (let i = 0; i < 50; i++) await bin.set(`k${i}`, `v${i}`);
    await bin.listAppend("list", "before");

    await cluster.restart(primary, { redis: "empty", ready: false });
    for (let i = 0; i < 50; i++) expect(await bin.get(`k${i}`)).toBe(`v${i}`);
    expect(await bin.listGet("list")).toEqual(["before"]);

    // Once the client sees it again, writes reach it (it holds the new entry) but reads still skip it.
    await waitForWritesToReach(client, primary);
    await bin.set("after", "restart");
    await bin.listAppend("list", "after");
    expect(await bin.get("after")).toBe("restart");
    expect(await bin.listGet("list")).toEqual(["before", "after"]);
    const { StorageClient } = await import("@binring/client");
    const direct = new StorageClient(primary, { bin: "ready-or-not" });
    expect(await direct.get("after")).toBe("restart");
    expect(await direct.get("k1")).toBeNull();
    await Promise.all([direct.close(), client.close()]);
  }, 60_000);
});

async function waitForWritesToReach(client: BinClient, address: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (client.reachability.isDown(address)) {
    if (Date.now() > deadline) throw new Error(`client never saw ${address} come back`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
