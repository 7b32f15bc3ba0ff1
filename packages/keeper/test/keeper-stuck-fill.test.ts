// A backend a keeper takes over as filling, with no fill left in the keeper
// log (its previous owner finished the fill, then lost the backend before its
// grant was seen): the new owner must fill it again, or it never serves reads.
import { afterEach, describe, expect, it } from "vitest";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("a backend taken over as filling that no keeper fills", () => {
  it("is filled again by its new owner and made ready", async () => {
    world = new KeeperWorld({ backends: 6, keepers: 2 });
    world.startAll();
    const w = world;
    await w.until(() => w.allReady(0) && w.allReady(1), 10_000, "a fresh cluster is ready");
    const [victim] = w.keeper(1).slice;
    expect(victim).toBeDefined();
    // Keeper 1's last word on its backend, before it falls silent: filling. It owes no fill in the log.
    await w.stopKeeper(1);
    const before = w.keeper(0).view();
    w.keeper(0).onBeat({
      keeper: w.keeperAddresses[1]!,
      incarnation: "keeper-1-last-beat",
      epoch: (before.epoch + 1n).toString(),
      backends: [
        {
          address: victim!,
          state: "BACKEND_STATE_FILLING",
          version: "1000000",
          incarnation: w.backend(victim!).node.incarnation,
          by: w.keeperAddresses[1]!,
          repairing: false,
        },
      ],
      slice: [victim!],
      working: [],
      maxClock: "0",
      grants: [],
      withheld: [],
    } as never);
    expect(w.stateOf(victim!)).toBe("filling");
    await w.until(() => w.keeper(0).slice.has(victim!), 10_000, "keeper 0 takes the backend over");
    await w.until(() => w.allReady(0), 20_000, `keeper 0 fills ${victim} and makes it ready`);
  });
});
