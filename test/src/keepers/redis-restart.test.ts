// A backend's Redis that restarts under it, its data lost (no disk, or a disk
// that lagged), while the backend process runs on: the backend must not keep
// serving reads as if it still held every acknowledged entry (HAZARDS.md 4).
// It reports that it needs a fill, reads fall through to the other replicas
// meanwhile, and its keeper refills it before it is ready again; a restart in
// the middle of that fill makes the keeper fill it again from the start.
import { BinClient, StorageClient } from "@binring/client";
import { afterAll, expect, it } from "vitest";
import { FAST_KEEPER_ARGS, keeperStatus, LocalCluster, waitFor, waitForSettled } from "../support/index.js";

let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

/** Kills a member's Redis and starts it again empty; resolves once its backend has noticed. */
async function restartRedisEmpty(member: LocalCluster["members"][number]): Promise<void> {
  const noticed = member.backend!.child.waitForLine(/store restarted/, 15_000, false);
  await member.redis.kill("SIGKILL");
  await member.redis.restart({ empty: true });
  await noticed;
}

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

it("a Redis restart in the middle of a fill sends the keeper back to fill from the start", async () => {
  await cluster?.stop();
  // One entry per copy message, so the fill lasts long enough to stop the keeper in the middle of it.
  cluster = await LocalCluster.start({
    backends: 3,
    keepers: 1,
    keeperArgs: [...FAST_KEEPER_ARGS, "--copy-batch", "1"],
  });
  const http = cluster.keeperHttp[0]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers });
  const bins = Array.from({ length: 3000 }, (_, i) => `bin-${i}`);
  for (let i = 0; i < bins.length; i += 500) {
    await Promise.all(bins.slice(i, i + 500).map((bin) => client.bin(bin).set("k", `value of ${bin}`)));
  }

  const [victim] = cluster.members;
  await restartRedisEmpty(victim!);
  await waitFor(
    "the keeper to be part way through filling the backend",
    async () => {
      const fill = (await keeperStatus(http)).repairs.find((r) => r.kind === "fill" && r.state === "running");
      return (fill?.entriesCopied ?? 0) > 0;
    },
    { timeoutMs: 20_000, intervalMs: 20 },
  );
  // Frozen mid-fill: what it copied so far goes with the second restart, and it copies the rest after.
  const keeper = cluster.keeperProcesses[0]!;
  keeper.signal("SIGSTOP");
  await restartRedisEmpty(victim!);
  keeper.signal("SIGCONT");

  await waitForSettled(http, { [victim!.address]: "ready" }, 60_000);
  const missing: string[] = [];
  for (const bin of bins) {
    const copy = new StorageClient(victim!.address, { bin });
    if ((await copy.get("k")) !== `value of ${bin}`) missing.push(bin);
    await copy.close();
  }
  expect(missing.length, `missing on the refilled backend: ${missing.slice(0, 5).join(", ")}`).toBe(0);
  await client.close();
}, 120_000);
