// Beats between keepers, in process: only the keepers of the cluster file have a say in the view,
// and no value in a beat drives an epoch or a clock to the top of its type (HAZARDS.md 11).
import { CLOCK_CEILING, EPOCH_CEILING, newWriterId } from "@binring/core";
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

  it("from a peer, with an epoch and a clock at 2^64 - 1, is merged without either", async () => {
    world = new KeeperWorld({ backends: 3, keepers: 2 });
    world.startAll();
    const w = world;
    await w.until(() => w.allReady(0) && w.allReady(1), 10_000, "a fresh cluster is ready");
    const top = (2n ** 64n - 1n).toString();
    // Each keeper hears it from the other: a keeper that took either value would wrap epochs or
    // send floors every backend refuses, and its clock rounds would stop converging.
    for (const [to, from] of [
      [0, 1],
      [1, 0],
    ] as const) {
      const peer = w.keeper(from);
      w.keeper(to).onBeat({
        keeper: peer.self,
        incarnation: peer.incarnation,
        epoch: top,
        backends: [],
        slice: [...peer.slice],
        working: [],
        maxClock: top,
        grants: [],
        withheld: [],
      } as never);
    }
    expect(w.keeper(0).epoch).toBeLessThan(EPOCH_CEILING);
    expect(w.keeper(1).epoch).toBeLessThan(EPOCH_CEILING);

    const [source, ...others] = w.addresses;
    const jump = 1n << 40n;
    await w.backend(source!).node.apply(
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
    await w.until(
      () => others.every((address) => w.backend(address).node.clock.peek() >= jump),
      1000,
      "every backend reaches the jumped clock",
    );
    for (const address of w.addresses) {
      expect(w.backend(address).node.clock.peek()).toBeLessThan(CLOCK_CEILING);
    }
    expect(w.allReady(0) && w.allReady(1)).toBe(true);
  });

  it("a backend that reports an epoch and a clock at 2^64 - 1 moves neither", async () => {
    world = new KeeperWorld({ backends: 3, keepers: 2 });
    world.startAll();
    const w = world;
    await w.until(() => w.allReady(0) && w.allReady(1), 10_000, "a fresh cluster is ready");
    const [liar, source, other] = w.addresses as [string, string, string];
    const top = (2n ** 64n - 1n).toString();
    w.backend(liar).tamper = (reply) => ({ ...reply, epoch: top, clock: top });
    // Rounds of both keepers hear it; a keeper that took the clock would send floors every
    // backend refuses from then on, and its clock rounds would stop converging.
    await w.clock.advance(2000);
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
    await w.until(
      () => w.backend(other).node.clock.peek() >= jump,
      1000,
      "the other backend reaches the jumped clock",
    );
    expect(w.keeper(0).epoch).toBeLessThan(EPOCH_CEILING);
    expect(w.keeper(1).epoch).toBeLessThan(EPOCH_CEILING);
    for (const address of w.addresses) {
      expect(w.backend(address).node.clock.peek()).toBeLessThan(CLOCK_CEILING);
    }
  });
});
