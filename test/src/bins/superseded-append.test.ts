// An append and a remove of the same value race: the remove, stamped above
// the append, reaches some replicas first. Those replicas would drop the
// append for good while the remove's count left it out, so the append must be
// restamped above the remove and applied again: it is then acknowledged and
// shows, and the remove's count (0) stays true.
import { BackendChannel, BinClient } from "@binring/client";
import { HashRing } from "@binring/core";
import { afterEach, expect, it } from "vitest";
import { LocalCluster } from "../support/index.js";

let cluster: LocalCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
});

it("an append that a concurrent remove overtook is restamped and shows", async () => {
  cluster = await LocalCluster.start({ backends: 3 });
  const ring = new HashRing(cluster.addresses.map((id) => ({ id })));
  const [primary, firstBackup, secondBackup] = ring.replicasFor("race") as [string, string, string];
  const client = new BinClient({ backends: cluster.addresses });

  // The remove is on its way: on both backups (its chain's first two hops), not yet on the primary.
  const target = { bin: "race", epoch: "0", requireReady: false };
  const remove = {
    target,
    key: "l",
    value: "x",
    stamp: { clock: "3999999999", writer: "00000000000000bb", seq: 1 },
  };
  for (const address of [secondBackup, firstBackup]) {
    const channel = new BackendChannel(address);
    expect((await channel.execute({ listRemove: remove })).write?.removed).toBe("0");
    channel.close();
  }

  // The primary's clock is far below the remove's stamp, so the append is stamped below it.
  expect(await client.bin("race").listAppend("l", "x")).toBe(true);
  // The remove lands on the primary last, as its chain does.
  const channel = new BackendChannel(primary);
  expect((await channel.execute({ listRemove: remove })).write?.removed).toBe("0");
  channel.close();

  expect(await client.bin("race").listGet("l")).toEqual(["x"]);
  await client.close();
}, 60_000);
