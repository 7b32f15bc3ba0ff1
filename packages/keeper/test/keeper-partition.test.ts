// A keeper cut off from the other keepers but not from the backends, in process
// on a fake clock. The backends still hear it, so the others take it for alive:
// nobody takes its slice over while it still acts on it, and no keeper acts on
// a backend whose lease another may still be renewing. Work that needs the other
// keepers' word waits for the partition to heal.
import { afterEach, describe, expect, it } from "vitest";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("a keeper cut off from the other keepers", () => {
  it("keeps its slice, no backend has two owners, and a death in its slice is repaired once it hears them again", async () => {
    world = new KeeperWorld({ backends: 6, keepers: 3 });
    world.startAll();
    const w = world;
    await w.until(() => [0, 1, 2].every((i) => w.allReady(i)), 10_000, "a fresh cluster is ready");
    const slices = [0, 1, 2].map((i) => new Set(w.keeper(i).slice));
    expect(slices[1]!.size).toBeGreaterThan(0);
    for (let i = 0; i < 30; i++) await w.write(`bin-${i}`, "k", `v${i}`);

    w.cutOff(1);
    const deadAfterMs = w.keeper(0).peers.deadAfterMs;
    const onlyOwners = () => {
      for (let i = 0; i < 3; i++) expect(w.keeper(i).slice, `keeper ${i}'s slice`).toEqual(slices[i]);
    };
    for (let step = 0; step < (3 * deadAfterMs) / 250; step++) {
      await w.clock.advance(250);
      onlyOwners();
    }
    const seen = w
      .keeper(0)
      .status()
      .keepers.find((keeper) => keeper.address === w.keeperAddresses[1]);
    expect(seen).toMatchObject({ alive: true, cutOff: true });
    expect([0, 1, 2].every((i) => w.allReady(i))).toBe(true);

    // A backend of its slice dies. The cut-off owner cannot learn when the others last renewed
    // its lease, so it neither declares it dead nor repairs it while cut off.
    const victim = [...slices[1]!][0]!;
    w.backend(victim).fault = "down";
    for (let step = 0; step < (3 * deadAfterMs) / 250; step++) {
      await w.clock.advance(250);
      onlyOwners();
      expect(w.stateOf(victim, 1)).not.toBe("dead");
    }

    w.heal(1);
    await w.until(() => w.stateOf(victim, 0) === "dead", 15_000, "declared dead once healed");
    await w.until(
      () => [0, 1, 2].every((i) => w.keeper(i).status().repairs.length === 0),
      30_000,
      "the repair is done",
    );
    onlyOwners();
    const live = (address: string) => address !== victim;
    for (let i = 0; i < 30; i++) {
      for (const replica of w.keeper(0).ring.replicasFor(`bin-${i}`, live)) {
        expect(await w.stored(replica, `bin-${i}`, "k"), `bin-${i} on ${replica}`).toBe(`v${i}`);
      }
    }
  });

  it("cut off from everything, it declares no backend dead, so nothing is emptied when it is heard again", async () => {
    world = new KeeperWorld({ backends: 6, keepers: 3 });
    world.startAll();
    const w = world;
    await w.until(() => [0, 1, 2].every((i) => w.allReady(i)), 10_000, "a fresh cluster is ready");
    let empties = 0;
    for (const backend of w.backends.values()) {
      backend.onCall = (call) => {
        if (call === "empty") empties++;
      };
    }
    w.isolate(1);
    const deadAfterMs = w.keeper(0).peers.deadAfterMs;
    for (let step = 0; step < (4 * deadAfterMs) / 250; step++) {
      await w.clock.advance(250);
      for (const address of w.addresses) expect(w.stateOf(address, 1), address).not.toBe("dead");
    }
    // To the others it is dead (nothing hears it): they took its slice, and every backend stayed ready.
    expect(w.keeper(0).slice.size + w.keeper(2).slice.size).toBe(6);
    expect(w.allReady(0)).toBe(true);

    w.heal(1);
    await w.until(
      () => w.keeper(1).slice.size > 0 && [0, 1, 2].every((i) => w.allReady(i)),
      15_000,
      "it is heard again, takes its slice back, and every keeper sees every backend ready",
    );
    await w.clock.advance(5000);
    expect([0, 1, 2].every((i) => w.allReady(i))).toBe(true);
    expect(empties).toBe(0);
  });
});
