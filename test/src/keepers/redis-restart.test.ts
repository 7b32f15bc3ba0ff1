// A backend's Redis that restarts under it, its data lost (no disk, or a disk
// that lagged), while the backend process runs on: the backend must not keep
// serving reads as if it still held every acknowledged entry (HAZARDS.md 4).
// It reports that it needs a fill, reads fall through to the other replicas
// meanwhile, and its keeper refills it before it is ready again (a restart in
// the middle of that fill: packages/keeper/test/keeper-fill.test.ts).
import { BinClient, StorageClient } from "@binring/client";
import { afterAll, expect, it } from "vitest";
import { LocalCluster, waitFor, waitForSettled } from "../support/index.js";

let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

it("a backend whose Redis restarted empty serves no reads until it is refilled", async () => {
  cluster = await LocalCluster.start({ backends: 3, keepers: 1 });
  const http = cluster.keeperHttp[0]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers, viewRefreshMs: 200 });
  const bins = Array.from({ length: 40 }, (_, i) => `bin-${i}`);
  // Three backends: every bin has a copy on each, so each is some bins' primary.
  await Promise.all(bins.map((bin) => client.bin(bin).set("k", `value of ${bin}`)));

  const [victim] = cluster.members;
  await victim!.redis.kill("SIGKILL");
  await victim!.redis.restart({ empty: true });
  const direct = new StorageClient(victim!.address, { bin: "bin-0" });
  await waitFor(
    "the backend to answer from its new, empty Redis",
    async () => (await direct.get("k")) === null,
    {
      timeoutMs: 15_000,
    },
  );
  // Reads whose primary is the victim fall through to a replica that holds every write.
  for (const bin of bins) expect(await client.bin(bin).get("k")).toBe(`value of ${bin}`);

  await waitFor(
    "the keeper to refill the backend",
    async () => (await direct.get("k")) === "value of bin-0",
    {
      timeoutMs: 20_000,
    },
  );
  await waitForSettled(http, { [victim!.address]: "ready" }, 20_000);
  for (const bin of bins) {
    const copy = new StorageClient(victim!.address, { bin });
    expect(await copy.get("k")).toBe(`value of ${bin}`);
    await copy.close();
  }
  await Promise.all([direct.close(), client.close()]);
}, 90_000);
