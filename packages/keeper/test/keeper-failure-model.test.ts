// The failure model holds two impaired backends at a time, in process on a
// fake clock. Three backends go silent together (an overloaded machine, say):
// two are declared dead, and the third stays suspect while their repairs
// cannot finish, because declaring it dead too would empty it when it returns
// and it may be some bin's last holder. When they all answer again, every
// acknowledged entry is still there.
import { afterEach, describe, expect, it } from "vitest";
import { KeeperWorld } from "./support/keeper-world.js";

const BINS = 60;

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("failure model", () => {
  it("never declares a third backend dead while two are dead with their repairs unfinished", async () => {
    world = new KeeperWorld({ backends: 6, keepers: 1 });
    world.startAll();
    const w = world;
    await w.until(() => w.allReady(), 10_000, "a fresh cluster is ready");
    for (let i = 0; i < BINS; i++) await w.write(`bin-${i}`, "k", `v${i}`);
    const silent = w.addresses.slice(0, 3);
    for (const address of silent) w.backend(address).fault = "hung";

    const impaired = () =>
      w
        .keeper(0)
        .view()
        .backends.filter((entry) => entry.state === "dead" || entry.state === "filling");
    let most = 0;
    await w.until(
      () => {
        most = Math.max(most, impaired().length);
        return impaired().length === 2;
      },
      20_000,
      "two of the silent backends are declared dead",
    );
    for (let step = 0; step < 100; step++) {
      await w.clock.advance(100);
      most = Math.max(most, impaired().length);
    }
    expect(most).toBe(2);
    const held = silent.find((address) => w.stateOf(address) === "ready")!;
    expect(held).toBeDefined();
    expect(
      w
        .keeper(0)
        .status()
        .backends.find((backend) => backend.address === held)?.state,
    ).toBe("suspect");

    for (const address of silent) w.backend(address).resume();
    await w.until(() => w.allReady(), 60_000, "every backend is ready again");
    const ring = w.keeper(0).ring;
    for (let i = 0; i < BINS; i++) {
      const holders = ring.replicasFor(`bin-${i}`);
      for (const replica of holders)
        expect(await w.stored(replica, `bin-${i}`, "k"), `bin-${i} on ${replica}`).toBe(`v${i}`);
    }
  });
});
