// A paused replica is not a dead one. Reads must not fall through past a
// primary that is merely paused: a backup may already show a write that is
// still on its way to the primary, and a later read from the resumed primary
// would go back in time.
import { BackendChannel, BinClient } from "@binring/client";
import { HashRing } from "@binring/core";
import { afterEach, describe, expect, it } from "vitest";
import { LocalCluster } from "../support/index.js";

describe("a paused primary", () => {
  let cluster: LocalCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
  });

  it("holds reads until it resumes instead of reading a backup that is ahead of it", async () => {
    cluster = await LocalCluster.start({ backends: 3 });
    const ring = new HashRing(cluster.addresses.map((id) => ({ id })));
    const [primary, firstBackup, secondBackup] = ring.replicasFor("paused");
    const reader = new BinClient({ backends: cluster.addresses, backendCallTimeoutMs: 300 });
    await reader.bin("paused").set("k", "before");

    // A write on its way: on both backups (the chain's first two steps), not yet on the primary.
    const target = { bin: "paused", epoch: "0", requireReady: false };
    const stamp = { clock: "3999999999", writer: "00000000000000aa", seq: 1 };
    for (const address of [secondBackup!, firstBackup!]) {
      const channel = new BackendChannel(address);
      await channel.execute({ set: { target, key: "k", value: "after", stamp } });
      channel.close();
    }
    cluster.member(primary!).backend!.child.signal("SIGSTOP");

    let paused = true;
    let answeredDuringPause = false;
    const read = reader
      .bin("paused")
      .get("k")
      .finally(() => {
        answeredDuringPause = paused;
      });
    // Several backend call timeouts pass: a read that fell through would have answered by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    paused = false;
    cluster.member(primary!).backend!.child.signal("SIGCONT");

    expect(await read).toBe("before");
    expect(answeredDuringPause).toBe(false);
    expect(await reader.bin("paused").get("k")).toBe("before");
    await reader.close();
  }, 60_000);
});
