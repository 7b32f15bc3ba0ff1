// Slice takeover and hand-back between keepers, in process on a fake clock.
import type { HeartbeatRequest } from "@binring/core";
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

  it("the last keeper repairs and fills; returning keepers get their slices back, never running a backend's work twice at once", async () => {
    world = new KeeperWorld({ backends: 6, keepers: 3 });
    world.startAll();
    const w = world;
    await w.until(() => [0, 1, 2].every((i) => w.allReady(i)), 10_000, "a fresh cluster is ready");
    const slices = [0, 1, 2].map((i) => new Set(w.keeper(i).slice));
    for (let i = 0; i < 30; i++) await w.write(`bin-${i}`, "k", `v${i}`);
    await w.stopKeeper(1);
    await w.stopKeeper(2);
    await w.until(() => w.keeper(0).slice.size === 6, 10_000, "keeper 0 owns every backend");
    const victim = [...slices[1]!, ...slices[2]!][0]!;
    const backend = w.backend(victim);
    backend.fault = "down";
    await w.until(() => w.stateOf(victim) === "dead", 15_000, "the last keeper declares it dead");
    await w.until(() => w.keeper(0).status().repairs.length === 0, 15_000, "the last keeper repairs it");

    // It returns empty and slow, so its fill is under way when the other keepers return.
    backend.restart("empty");
    backend.latencyMs = 300;
    backend.fault = "none";
    await w.until(
      () =>
        w
          .keeper(0)
          .status()
          .repairs.some((repair) => repair.kind === "fill" && repair.state === "running"),
      15_000,
      "the fill runs",
    );
    w.startKeeper(1);
    w.startKeeper(2);
    const running = () =>
      [0, 1, 2].flatMap((i) =>
        w
          .keeper(i)
          .status()
          .repairs.filter((repair) => repair.state === "running")
          .map((repair) => repair.backend),
      );
    await w.until(
      () => {
        const work = running();
        expect(new Set(work).size, `work running twice at once: ${work}`).toBe(work.length);
        return (
          [0, 1, 2].every((i) => setsEqual(w.keeper(i).slice, slices[i]!)) &&
          w.stateOf(victim) === "ready" &&
          work.length === 0
        );
      },
      60_000,
      "slices handed back and the fill finished",
    );
    backend.latencyMs = 0;
    const ring = w.keeper(0).ring;
    for (let i = 0; i < 30; i++) {
      for (const replica of ring.replicasFor(`bin-${i}`)) {
        expect(await w.stored(replica, `bin-${i}`, "k"), `bin-${i} on ${replica}`).toBe(`v${i}`);
      }
    }
  });

  it("a keeper back for a moment keeps the view vouching for its slice: no lease lapses, nothing is refilled", async () => {
    world = new KeeperWorld({ backends: 6, keepers: 3 });
    world.startAll();
    const w = world;
    await w.until(() => [0, 1, 2].every((i) => w.allReady(i)), 15_000, "a fresh cluster is ready");
    const slice = [...w.keeper(2).slice];
    expect(slice.length).toBeGreaterThan(0);
    // A lapsed lease the next owner cannot vouch for is refilled, and a takeover while filling empties it.
    const incarnations = new Map(slice.map((address) => [address, w.backend(address).node.incarnation]));
    let unready = 0;
    const watch = async (ms: number) => {
      for (let t = 0; t < ms; t += 100) {
        await w.clock.advance(100);
        for (const a of slice) if (!w.backend(a).node.ready) unready++;
      }
    };

    await w.stopKeeper(2);
    await w.until(
      () => w.keeper(0).slice.size + w.keeper(1).slice.size === 6,
      10_000,
      "its slice is taken over",
    );
    await watch(2000);
    // Back, but its first heartbeats to its slice are lost (a new channel still connecting): it takes
    // the slice back before it has heard from any of it, then dies again.
    const fromKeeper2 = (call: string, detail: unknown) =>
      call === "heartbeat" && (detail as HeartbeatRequest).keeper === w.keeperAddresses[2];
    for (const a of slice) w.backend(a).loses = fromKeeper2;
    w.startKeeper(2);
    await w.until(() => w.keeper(2).slice.size === slice.length, 10_000, "the slice is handed back");
    await watch(1500);
    await w.stopKeeper(2);
    for (const a of slice) w.backend(a).loses = undefined;
    await watch(10_000);
    w.startKeeper(2);
    await watch(10_000);
    for (const a of slice) expect(w.backend(a).node.incarnation).toBe(incarnations.get(a));
    expect(unready).toBe(0);
  });
});

function setsEqual(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}
