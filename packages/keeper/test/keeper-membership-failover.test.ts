// A membership change across keeper deaths, in process on a fake clock: a
// backend is added or removed, and at a random point of the change (before its
// owner acted, while it records the intent, part way through the copies, or
// after) either the keeper that owns the backend dies, or every keeper is
// restarted from the original cluster file. Each time the change completes:
// the membership is what was asked, every bin is on its three replicas, and
// the keeper log holds no unfinished intent.
import type { Entry } from "@binring/core";
import { afterEach, describe, expect, it } from "vitest";
import { IntentLog, KEEPER_LOG_BIN } from "../src/intent-log.js";
import type { Keeper } from "../src/keeper.js";
import { KeeperWorld } from "./support/keeper-world.js";
import { seeded } from "./support/seeded.js";

const RUNS = 16;
const BINS = 40;

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("a membership change survives its keepers", () => {
  for (let seed = 1; seed <= RUNS; seed++) {
    const adding = seed % 2 === 1;
    const everyKeeper = seed % 4 === 0 || seed % 4 === 3;
    it(`${adding ? "an add" : "a remove"} completes after ${everyKeeper ? "every keeper restarted" : "its owner died"} at a random point (seed ${seed})`, async () => {
      const random = seeded(seed);
      world = new KeeperWorld({ backends: 5, keepers: 3 });
      world.startAll();
      const w = world;
      await w.until(() => [0, 1, 2].every((i) => w.allReady(i)), 10_000, "a fresh cluster is ready");
      for (let i = 0; i < BINS; i++) await w.write(`bin-${i}`, "k", `v${i}`);

      const changing = adding ? "127.0.0.1:7105" : w.seed[Math.floor(random() * 5)]!;
      if (adding) w.startBackend(changing);
      const asked = Math.floor(random() * 3);
      if (adding) await w.keeper(asked).addBackend(changing, "");
      else await w.keeper(asked).removeBackend(changing);
      const members = adding ? [...w.seed, changing] : w.seed.filter((address) => address !== changing);

      // The owner dies (or every keeper restarts) after a random time, or at the n-th copy, whichever comes first.
      const ownerOf = (keeper: Keeper) =>
        keeper.status().backends.find((backend) => backend.address === changing)?.owner ?? undefined;
      const killAfterMs = Math.floor(random() * 5000);
      let copiesLeft = Math.floor(random() * 6);
      let struck = false;
      let stopped: number[] = [];
      const strike = () => {
        if (struck) return;
        struck = true;
        const owner = w.keeperAddresses.indexOf(ownerOf(w.keeper(asked)) ?? w.keeperAddresses[asked]!);
        stopped = everyKeeper ? [0, 1, 2] : [owner];
        for (const i of stopped) void w.stopKeeper(i);
      };
      for (const backend of w.backends.values()) {
        backend.onCall = (call, detail) => {
          if (call !== "apply" || struck) return;
          if ((detail as Entry[]).some((entry) => entry.bin !== KEEPER_LOG_BIN) && copiesLeft-- === 0)
            strike();
        };
      }
      const startedAt = w.clock.now();
      await w.until(
        () => {
          if (w.clock.now() - startedAt >= killAfterMs) strike();
          return struck;
        },
        10_000,
        "the strike",
      );
      await w.clock.advance(100);
      if (everyKeeper) w.startAll();
      const running = [0, 1, 2].filter((i) => everyKeeper || !stopped.includes(i));

      await w.until(
        () =>
          running.every((i) => {
            const view = w.keeper(i).view();
            return (
              view.backends
                .map((b) => b.address)
                .sort()
                .join() === [...members].sort().join() &&
              view.backends.every((b) => b.state === "ready" && w.backend(b.address).node.ready) &&
              w.keeper(i).status().repairs.length === 0
            );
          }),
        60_000,
        "the change is complete in every running keeper's view",
      );
      const log = await new IntentLog((address) => w.backend(address), 1000).read(members);
      expect(log.intents.filter((intent) => !log.done.has(intent.id)).map((intent) => intent.id)).toEqual([]);
      const ring = w.keeper(running[0]!).ring;
      expect(ring.members.map((member) => member.id).sort()).toEqual([...members].sort());
      for (let i = 0; i < BINS; i++) {
        for (const replica of ring.replicasFor(`bin-${i}`)) {
          expect(await w.stored(replica, `bin-${i}`, "k"), `bin-${i} on ${replica}`).toBe(`v${i}`);
        }
      }
    });
  }
});
