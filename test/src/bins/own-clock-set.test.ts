// A set goes out stamped by the client's own clock, without asking a replica
// first. A client that never saw a later write of the key stamps too low; the
// replicas holding that write must answer `superseded`, and the set must be
// restamped above it and win: a write after an acknowledged write wins.
import { BackendChannel, BinClient } from "@binring/client";
import { HashRing } from "@binring/core";
import { afterEach, expect, it } from "vitest";
import { LocalCluster } from "../support/index.js";

let cluster: LocalCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
});

const HIGH_CLOCK = 5_000_000n;

it("a set from a client that never saw the key's later write still wins", async () => {
  cluster = await LocalCluster.start({ backends: 3 });
  const first = new BinClient({ backends: cluster.addresses });
  // Clocks far above where a fresh client starts: the next set is stamped above HIGH_CLOCK.
  await first.bin("s").clock(HIGH_CLOCK);
  await first.bin("s").set("k", "first");
  await first.close();

  const second = new BinClient({ backends: cluster.addresses });
  expect(second.clockSeen).toBe(0n);
  await second.bin("s").set("k", "second");
  expect(await second.bin("s").get("k")).toBe("second");
  const reader = new BinClient({ backends: cluster.addresses });
  expect(await reader.bin("s").get("k")).toBe("second");
  await Promise.all([second.close(), reader.close()]);
}, 60_000);

it("the first ready replica alone holding the later write is enough, and the backups end with the set", async () => {
  cluster = await LocalCluster.start({ backends: 3 });
  const replicas = new HashRing(cluster.addresses.map((id) => ({ id }))).replicasFor("s");
  const primary = replicas[0]!;
  // A later entry of the key on the primary only: the set reaches it on its chain's last hop.
  const channel = new BackendChannel(primary);
  const stamp = { clock: String(HIGH_CLOCK), writer: "00000000000000aa", seq: 1 };
  await channel.execute({
    set: { target: { bin: "s", epoch: "0", requireReady: false }, key: "k", value: "old", stamp },
  });
  channel.close();

  const client = new BinClient({ backends: cluster.addresses });
  await client.bin("s").set("k", "new");
  for (const address of replicas) {
    const replica = new BackendChannel(address);
    const { get } = await replica.execute({
      get: { target: { bin: "s", epoch: "0", requireReady: false }, key: "k" },
    });
    replica.close();
    expect({ address, value: get?.value }).toEqual({ address, value: "new" });
    expect(BigInt(get?.stamp?.clock ?? "0")).toBeGreaterThan(HIGH_CLOCK);
  }
  await client.close();
}, 60_000);
