// The commit point across a keeper's death, in process on a fake clock: a
// backend dies, and the keeper that owns it dies at a random point of the
// repair (before noticing the death, while recording the intent, part way
// through the copies, or after). Each time the keeper that takes the slice
// over finishes the work: every bin has its copies on its replicas, and the
// log holds no unfinished intent.
import type { Entry } from "@binring/core";
import { afterEach, describe, expect, it } from "vitest";
import { IntentLog, KEEPER_LOG_BIN } from "../src/intent-log.js";
import { KeeperWorld } from "./support/keeper-world.js";
import { seeded } from "./support/seeded.js";

const RUNS = 20;
const BINS = 30;

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function unfinished(w: KeeperWorld, sources: string[]): Promise<string[]> {
  const log = await new IntentLog((address) => w.backend(address), 1000).read(sources);
  return log.intents.filter((intent) => !log.done.has(intent.id)).map((intent) => intent.id);
}

describe("intent log", () => {
  for (let seed = 1; seed <= RUNS; seed++) {
    it(`a successor finishes the repair of a keeper killed at a random point (seed ${seed})`, async () => {
      const random = seeded(seed);
      world = new KeeperWorld({ backends: 6, keepers: 3 });
      world.startAll();
      const w = world;
      await w.until(() => [0, 1, 2].every((i) => w.allReady(i)), 10_000, "a fresh cluster is ready");
      for (let i = 0; i < BINS; i++) await w.write(`bin-${i}`, "k", `v${i}`);
      const dying = w.addresses[Math.floor(random() * 6)]!;
      const owner = w.keeperAddresses.indexOf(
        w
          .keeper(0)
          .status()
          .backends.find((backend) => backend.address === dying)!.owner!,
      );
      const successors = [0, 1, 2].filter((i) => i !== owner);

      // The owner dies after a random time, or at the n-th copy it applies, whichever comes first.
      const killAfterMs = Math.floor(random() * 6000);
      let copiesLeft = Math.floor(random() * 8);
      let killed = false;
      const kill = () => {
        if (killed) return;
        killed = true;
        void w.stopKeeper(owner);
      };
      for (const backend of w.backends.values()) {
        backend.onCall = (call, detail) => {
          if (call !== "apply" || killed) return;
          const entries = detail as Entry[];
          if (entries.some((entry) => entry.bin !== KEEPER_LOG_BIN) && copiesLeft-- === 0) kill();
        };
      }
      w.backend(dying).fault = "down";
      const diedAt = w.clock.now();
      await w.until(
        () => {
          if (w.clock.now() - diedAt >= killAfterMs) kill();
          return killed;
        },
        10_000,
        "the owner is killed",
      );

      const live = w.addresses.filter((address) => address !== dying);
      await w.until(
        () =>
          successors.some((i) => w.keeper(i).slice.has(dying)) &&
          successors.every((i) => w.stateOf(dying, i) === "dead"),
        15_000,
        "a successor owns the dead backend and has published its death",
      );
      for (let waited = 0; (await unfinished(w, live)).length > 0; waited += 500) {
        if (waited > 30_000) expect(await unfinished(w, live), "intents left unfinished").toEqual([]);
        await w.clock.advance(500);
      }
      await w.until(
        () => successors.every((i) => w.keeper(i).status().repairs.length === 0),
        30_000,
        "no work left",
      );
      const repairing = (i: number) =>
        w
          .keeper(i)
          .view()
          .backends.find((b) => b.address === dying)?.repairing;
      await w.until(
        () => successors.every((i) => repairing(i) === false),
        10_000,
        "every successor's view shows the dead backend's repair done",
      );
      const ring = w.keeper(successors[0]!).ring;
      for (let i = 0; i < BINS; i++) {
        for (const replica of ring.replicasFor(`bin-${i}`, (address) => address !== dying)) {
          expect(await w.stored(replica, `bin-${i}`, "k"), `bin-${i} on ${replica}`).toBe(`v${i}`);
        }
      }
    });
  }
});
