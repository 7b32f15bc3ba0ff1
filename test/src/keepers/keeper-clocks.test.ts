// Clock convergence across slices: a backend's clock pushed far ahead is
// carried to the backends every other keeper owns, within 1 s, through the
// beats alone (with production keeper timing). Each keeper raises only its own
// slice, so for every ordered pair of keepers this crosses a slice boundary.
import { StorageClient } from "@binring/client";
import { afterAll, expect, it } from "vitest";
import { LocalCluster, waitForKeepersSettled } from "../support/index.js";

let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

it("a clock() 1 s after another, on a backend another keeper owns, is no smaller", async () => {
  cluster = await LocalCluster.start({ backends: 4, keepers: 3, keeperArgs: [] });
  const running = cluster;
  const https = running.keeperHttp.filter((http): http is string => http !== undefined);
  const [status] = await waitForKeepersSettled(
    https,
    Object.fromEntries(running.addresses.map((a) => [a, "ready"])),
    60_000,
  );
  const owned = status!.keepers.filter((keeper) => keeper.slice.length > 0);
  expect(owned.length).toBeGreaterThan(1);
  const clients = new Map(running.addresses.map((address) => [address, new StorageClient(address)]));
  let target = 10_000_000n;
  for (const from of owned) {
    for (const to of owned.filter((keeper) => keeper !== from)) {
      const ahead = clients.get(from.slice[0]!)!;
      const behind = clients.get(to.slice[0]!)!;
      target *= 2n;
      const last = await ahead.clock(target);
      // The guarantee is about elapsed time, so this test waits for time itself.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(
        await behind.clock(),
        `${from.address}'s ${ahead.address} -> ${to.address}'s ${behind.address}`,
      ).toBeGreaterThan(last);
    }
  }
  await Promise.all([...clients.values()].map((client) => client.close()));
}, 120_000);
