// Clock convergence across slices: a backend's clock pushed far ahead is
// carried to the backends every other keeper owns, within seconds, through the
// beats alone (with production keeper timing). Each keeper raises only its own
// slice, so for every ordered pair of keepers this crosses a slice boundary.
// And under steady writes, which move every clock on between rounds, keepers
// beat each other only at their interval.
import { BinClient, StorageClient } from "@binring/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type KeeperStatus,
  keeperStatus,
  LocalCluster,
  waitFor,
  waitForKeepersSettled,
} from "../support/index.js";

let cluster: LocalCluster | undefined;
let settled: KeeperStatus;
beforeAll(async () => {
  cluster = await LocalCluster.start({ backends: 6, keepers: 3, keeperArgs: [] });
  const https = cluster.keeperHttp.filter((http): http is string => http !== undefined);
  [settled] = (await waitForKeepersSettled(
    https,
    Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])),
    60_000,
  )) as [KeeperStatus];
}, 90_000);
afterAll(async () => {
  await cluster?.stop();
});

it("a clock() 1 s after another, on a backend another keeper owns, is no smaller", async () => {
  const running = cluster!;
  const status = settled;
  const owned = status.keepers.filter((keeper) => keeper.slice.length > 0);
  expect(owned.length).toBeGreaterThan(1);
  const clients = new Map(running.addresses.map((address) => [address, new StorageClient(address)]));
  let target = 10_000_000n;
  for (const from of owned) {
    for (const to of owned.filter((keeper) => keeper !== from)) {
      const ahead = clients.get(from.slice[0]!)!;
      const behind = clients.get(to.slice[0]!)!;
      target *= 2n;
      const last = await ahead.clock(target);
      // Usually within 1 s (any keeper's next sync round reads it and raises every backend);
      // once in CI runs a pair took longer, so the bound here is 3 s and the 1 s case is left to
      // the chaos clock checker.
      const seen = await waitFor(
        `${from.address}'s ${ahead.address} -> ${to.address}'s ${behind.address} to pass ${last}`,
        async () => {
          const clock = await behind.clock();
          return clock > last ? clock : undefined;
        },
        { timeoutMs: 3000, intervalMs: 100 },
      );
      expect(seen).toBeGreaterThan(last);
    }
  }
  await Promise.all([...clients.values()].map((client) => client.close()));
}, 120_000);

/** Beats each keeper has sent so far, as its status reports. */
async function beatsSent(https: string[]): Promise<number[]> {
  return Promise.all(https.map(async (http) => (await keeperStatus(http)).beatsSent));
}

it("under steady writes, keepers beat each other a few times a second, not in a storm", async () => {
  const running = cluster!;
  const https = running.keeperHttp.filter((http): http is string => http !== undefined);
  const client = new BinClient({ backends: running.addresses, keepers: running.keepers });
  // Each writer walks the bins from its own offset, so every slice's clocks move at once.
  const writeFor = async (ms: number, writer = 0) => {
    const until = performance.now() + ms;
    for (let i = writer * 97; performance.now() < until; i++) await client.bin(`b${i % 1000}`).set("k", "v");
  };
  await writeFor(1000);
  const before = await beatsSent(https);
  const started = performance.now();
  await Promise.all(Array.from({ length: 16 }, (_, writer) => writeFor(4000, writer)));
  const seconds = (performance.now() - started) / 1000;
  const after = await beatsSent(https);
  await client.close();
  // Per keeper and second, to each of its 2 peers: the periodic beat only. A sync round that
  // finds a new largest clock (every round, under writes) raises every live backend itself
  // and does not beat.
  const perSecond = after.map((count, i) => (count - before[i]!) / seconds);
  // Measured: about 2 a second; up to 6 when each such round beat too, 14 to 20 when rounds
  // that a peer's beat triggered beat as well.
  expect(perSecond, "beats sent per keeper per second").toSatisfy((rates: number[]) =>
    rates.every((rate) => rate < 3.5),
  );
}, 60_000);
