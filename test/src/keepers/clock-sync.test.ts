// Clock convergence across 6 backends with production keeper timing: a
// clock() issued at least 1 s after another, in any bin, returns no less.
import { BinClient } from "@binring/client";
import { HashRing } from "@binring/core";
import { afterAll, expect, it } from "vitest";
import { LocalCluster, waitForSettled } from "../support/index.js";

let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

it("a clock() at least 1 s after another, in a bin on other backends, is no smaller", async () => {
  cluster = await LocalCluster.start({ backends: 6, keepers: 1, keeperArgs: [] });
  const http = (await cluster.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers });
  const ring = new HashRing(cluster.addresses.map((id) => ({ id })));
  const names = Array.from({ length: 200 }, (_, i) => `bin-${i}`);
  // Pairs of bins whose replica sets do not overlap: only the keepers can carry a clock across.
  const pairs: [string, string][] = [];
  for (const a of names) {
    const held = new Set(ring.replicasFor(a));
    const b = names.find((n) => ring.replicasFor(n).every((r) => !held.has(r)));
    if (b && pairs.length < 3) pairs.push([a, b]);
  }
  expect(pairs).toHaveLength(3);
  for (const [a, b] of pairs) {
    let last = 0n;
    // Push a's backends far ahead of everyone else's.
    await client.bin(a).clock(10_000_000n);
    for (let i = 0; i < 200; i++) last = await client.bin(a).clock();
    // The guarantee is about elapsed time, so this test waits for time itself.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await client.bin(b).clock()).toBeGreaterThanOrEqual(last);
  }
  await client.close();
}, 60_000);
