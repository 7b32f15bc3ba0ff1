// Lamport clock convergence, in process on a fake clock (clock-sync.ts): a
// clock that jumps on one backend reaches every live backend within a second,
// even those of a keeper that is stalled and not yet declared dead.
import { newWriterId } from "@binring/core";
import { afterEach, describe, expect, it } from "vitest";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("clock convergence", () => {
  it("raises a stalled keeper's backends too, within a second of a jump elsewhere", async () => {
    world = new KeeperWorld({ backends: 6, keepers: 3 });
    world.startAll();
    const w = world;
    await w.until(() => w.allReady(0), 15_000, "a fresh cluster is ready");
    const stalledSlice = [...w.keeper(1).slice];
    const source = [...w.keeper(0).slice][0]!;
    expect(stalledSlice.length).toBeGreaterThan(0);

    // Keeper 1 stalls: its calls are held and its beats fail, but it is not dead for three seconds.
    w.stallWhen(1, () => true);
    await w.until(() => w.stalled(1), 5000, "keeper 1 stalls");

    const jump = 1n << 40n;
    await w.backend(source).node.apply(
      [
        {
          bin: "b",
          key: "k",
          kind: "set",
          value: "v",
          stamp: { clock: jump, writer: newWriterId(), seq: 1 },
        },
      ],
      0n,
    );
    const from = w.clock.now();
    await w.until(
      () => stalledSlice.every((address) => w.backend(address).node.clock.peek() >= jump),
      1000,
      "the stalled keeper's backends reach the jumped clock",
    );
    // Still within the time a stalled keeper is presumed live: nobody took its slice over.
    expect(w.clock.now() - from).toBeLessThan(
      w.keeper(0).timing.missesToDead * w.keeper(0).timing.heartbeatIntervalMs,
    );
  }, 60_000);
});
