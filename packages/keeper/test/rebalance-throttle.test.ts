// Rebalancing copies are paced to the keeper's rate; repairs after a death are
// not (rebalance-throttle.ts), on the fake clock.
import { afterEach, describe, expect, it } from "vitest";
import { RebalanceThrottle } from "../src/rebalance-throttle.js";
import { FakeClock } from "./support/fake-clock.js";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("the rebalance throttle", () => {
  it("lets bytes through at its rate, a quarter second ahead at most", async () => {
    const clock = new FakeClock();
    const throttle = new RebalanceThrottle(clock, 1000);
    let taken = 0;
    const run = (async () => {
      for (let i = 0; i < 10; i++) {
        await throttle.take(500);
        taken += 500;
      }
    })();
    await clock.advance(1000);
    // 1 s at 1000 B/s, plus the burst: the third batch of 500 is through, the fourth waits.
    expect(taken).toBe(1500);
    await clock.advance(4000);
    await run;
    expect(taken).toBe(5000);
  });
});

const BINS = 60;
const VALUE = "x".repeat(2000);

/**
 * How long (fake time) adding a backend to a ready 5-backend world takes until
 * every keeper sees it ready, and the rates its copies' Scans asked for.
 */
async function addBackend(rebalanceBytesPerSecond?: number): Promise<{ took: number; scanRates: number[] }> {
  world = new KeeperWorld(
    { backends: 5, keepers: 1 },
    rebalanceBytesPerSecond ? { rebalanceBytesPerSecond } : {},
  );
  world.startAll();
  const w = world;
  await w.until(() => w.allReady(), 10_000, "a fresh cluster is ready");
  for (let i = 0; i < BINS; i++) await w.write(`bin-${i}`, "k", VALUE);
  w.startBackend("127.0.0.1:7105");
  await w.keeper(0).addBackend("127.0.0.1:7105", "");
  const took = await w.until(
    () =>
      w.keeper(0).view().backends.length === 6 && w.allReady() && w.keeper(0).status().repairs.length === 0,
    120_000,
    "the added backend is filled",
  );
  const scanRates = w.addresses.flatMap((address) => w.backend(address).scanRates);
  await w.close();
  world = undefined;
  return { took, scanRates };
}

describe("an added backend's fill", () => {
  it("is paced to the keeper's rebalance rate, each source of its two tasks at once asked for half", async () => {
    const unpaced = await addBackend();
    const paced = await addBackend(5000);
    // The new backend's share of 60 bins of 2 KB (about 60 KB) applied at 5 KB/s: about 12 s. The
    // in-process backends only record the rate a Scan asks for: here the keeper's throttle paces.
    expect(paced.took - unpaced.took).toBeGreaterThan(8000);
    expect(paced.took - unpaced.took).toBeLessThan(20_000);
    expect(new Set(paced.scanRates)).toEqual(new Set([2500]));
  });
});
