// Slice takeover and hand-back between keepers, in process on a fake clock.
import { afterEach, describe, expect, it } from "vitest";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("keeper takeover", () => {
  it("takes over a silent keeper's slice only once it is dead, and hands it back when it returns", async () => {
    world = new KeeperWorld({ backends: 6, keepers: 2 });
    world.startAll();
    const w = world;
    await w.until(() => w.allReady(0) && w.allReady(1), 10_000, "a fresh cluster is ready");
    const first = new Set(w.keeper(0).slice);
    const second = new Set(w.keeper(1).slice);
    expect(first.size).toBeGreaterThan(0);
    expect(second.size).toBeGreaterThan(0);
    expect(first.size + second.size).toBe(6);

    await w.stopKeeper(1);
    const deadAfterMs = w.keeper(0).peers.deadAfterMs;
    // Silent for less than deadAfterMs: not dead yet, its slice is not taken.
    await w.clock.advance(deadAfterMs - 500);
    expect(w.keeper(0).slice).toEqual(first);
    // Then taken over, and no backend's lease lapses meanwhile: keeper 0 renews them all.
    let lapsed = 0;
    await w.until(
      () => {
        if (![...w.backends.values()].every((backend) => backend.node.ready)) lapsed++;
        return w.keeper(0).slice.size === 6;
      },
      5000,
      "keeper 0 owns every backend",
    );
    await w.clock.advance(10_000);
    expect(lapsed).toBe(0);
    expect(w.allReady(0)).toBe(true);

    w.startKeeper(1);
    await w.until(
      () => w.keeper(1).slice.size === second.size && w.keeper(0).slice.size === first.size,
      10_000,
      "the slice is handed back",
    );
    expect(w.keeper(1).slice).toEqual(second);
    expect(w.keeper(0).slice).toEqual(first);
    // Never both at once: no backend is in both slices at any point after the hand-back.
    for (let step = 0; step < 20; step++) {
      await w.clock.advance(250);
      for (const backend of w.keeper(0).slice) expect(w.keeper(1).slice.has(backend)).toBe(false);
    }
    expect(w.allReady(0) && w.allReady(1)).toBe(true);
  });
});
