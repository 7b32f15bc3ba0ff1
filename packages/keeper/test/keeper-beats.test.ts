// Beats between keepers, in process: only the keepers of the cluster file have a say in the view.
import { afterEach, describe, expect, it } from "vitest";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("a beat", () => {
  it("from a keeper not in the cluster file is refused and changes nothing in the view", async () => {
    world = new KeeperWorld({ backends: 3, keepers: 2 });
    world.startAll();
    const w = world;
    await w.until(() => w.allReady(0), 10_000, "a fresh cluster is ready");
    const before = w.keeper(0).view();
    const [victim] = before.backends;
    const forged = {
      keeper: "10.9.9.9:7600",
      incarnation: "forged",
      epoch: (before.epoch + 1000n).toString(),
      backends: [
        {
          address: victim!.address,
          state: "BACKEND_STATE_DEAD",
          version: "999",
          incarnation: "x",
          by: "10.9.9.9:7600",
          repairing: false,
        },
      ],
      slice: [],
      working: [],
      maxClock: "0",
      grants: [],
      withheld: [],
    };
    expect(() => w.keeper(0).onBeat(forged as never)).toThrow(
      /beat from "10\.9\.9\.9:7600", which is not another keeper of this cluster: refused/,
    );
    const after = w.keeper(0).view();
    expect(after.epoch).toBe(before.epoch);
    expect(after.backends.find((entry) => entry.address === victim!.address)?.state).toBe("ready");
  });
});
