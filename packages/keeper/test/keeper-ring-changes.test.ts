// Keepers joining and leaving the keeper ring of a running cluster, in process
// on a fake clock (keeper-ring-changes.ts): an added keeper takes its stretch
// of the ring over, a removed one hands its slice over and then acts on
// nothing, the keeper ring survives every keeper restarting from the original
// cluster file, and refusals change nothing.
import type { HeartbeatRequest } from "@binring/core";
import { afterEach, describe, expect, it } from "vitest";
import { KeeperRing } from "../src/keeper-ring.js";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const BINS = 30;

async function readyWorld(options: { keepers: number; spareKeepers: number }): Promise<KeeperWorld> {
  world = new KeeperWorld({ backends: 6, ...options });
  world.startAll();
  const w = world;
  await w.until(() => w.allReady(), 15_000, "a fresh cluster is ready");
  for (let i = 0; i < BINS; i++) await w.write(`bin-${i}`, "k", `v${i}`);
  return w;
}

/**
 * The running keepers on the keeper ring own exactly the slices a ring of
 * `onRing` gives them, every backend once, and the others own nothing.
 */
function slicesAre(w: KeeperWorld, running: number[], onRing: number[]): boolean {
  const expected = new KeeperRing(onRing.map((i) => w.keeperAddresses[i]!)).slices(w.seed, () => true);
  return running.every((i) => {
    const keeper = w.keeper(i);
    const mine = expected.get(keeper.self) ?? [];
    return keeper.slice.size === mine.length && mine.every((backend) => keeper.slice.has(backend));
  });
}

/** Every running keeper lists exactly `listed` as keepers (the ring and those leaving it). */
function keepersListed(w: KeeperWorld, asking: number[], listed: number[]): boolean {
  const want = listed.map((i) => w.keeperAddresses[i]!).sort();
  return asking.every(
    (i) =>
      JSON.stringify(
        w
          .keeper(i)
          .status()
          .keepers.map((k) => k.address)
          .sort(),
      ) === JSON.stringify(want),
  );
}

describe("adding a keeper", () => {
  it("gives it its stretch of the keeper ring; every backend keeps one owner and stays ready", async () => {
    const w = await readyWorld({ keepers: 3, spareKeepers: 1 });
    const spare = w.startKeeper(3);
    const address = w.keeperAddresses[3]!;
    await w.until(() => w.clock.now() > 0, 1000, "a round");
    expect(spare.ringStatus).toBe("off-ring");
    expect(spare.status().offRing).toBe(true);
    expect(spare.slice.size).toBe(0);

    expect(await w.keeper(1).addKeeper(address)).toEqual({ changed: true, status: "member" });
    await w.until(
      () => spare.ringStatus === "member" && slicesAre(w, [0, 1, 2, 3], [0, 1, 2, 3]),
      20_000,
      "the slices move to the added keeper",
    );
    expect(spare.slice.size).toBeGreaterThan(0);
    expect(w.allReady(3)).toBe(true);
    expect(keepersListed(w, [0, 1, 2, 3], [0, 1, 2, 3])).toBe(true);

    // A second add changes nothing, asked of any keeper.
    expect(await w.keeper(2).addKeeper(address)).toEqual({ changed: false, status: "member" });

    // The added keeper acts on its slice: a backend of it that dies is repaired by it.
    const victim = [...spare.slice][0]!;
    w.backend(victim).fault = "down";
    await w.until(
      () => w.stateOf(victim, 3) === "dead",
      20_000,
      "the added keeper declares its backend dead",
    );
    w.backend(victim).fault = "none";
    await w.until(() => w.allReady(3), 30_000, "the added keeper fills its backend again");
  }, 60_000);
});

describe("an added keeper", () => {
  it("renews no lease as a witness until every live peer has beaten it (and so waits for its renewals)", async () => {
    const w = await readyWorld({ keepers: 3, spareKeepers: 1 });
    const spare = w.startKeeper(3);
    const address = w.keeperAddresses[3]!;
    const renewals: string[] = [];
    for (const backend of w.seed) {
      w.backend(backend).onCall = (call, detail) => {
        const request = detail as HeartbeatRequest;
        if (call === "heartbeat" && request.keeper === address && request.readiness === "READINESS_READY") {
          renewals.push(backend);
        }
      };
    }
    await w.keeper(0).addKeeper(address);
    // Cut off from the keepers (not from the backends) before keepers 1 and 2 have beaten it.
    w.cutOff(3);
    const from = w.clock.now();
    await w.until(() => w.clock.now() - from >= 5000, 6000, "five seconds pass");
    expect(spare.ringStatus).toBe("member");
    expect(renewals).toEqual([]);

    w.heal(3);
    await w.until(() => renewals.length > 0, 10_000, "it renews once every peer has beaten it");
  }, 60_000);
});

describe("removing a keeper", () => {
  it("hands its slice over, renews no lease that could outlive it, and then owns nothing", async () => {
    const w = await readyWorld({ keepers: 3, spareKeepers: 0 });
    const leaving = w.keeperAddresses[1]!;
    // Once it is off the ring no owner waits for its leases: the last one it renewed must have run out.
    let lastRenewal = Number.NEGATIVE_INFINITY;
    for (const address of w.seed) {
      w.backend(address).onCall = (call, detail) => {
        const request = detail as HeartbeatRequest;
        if (call === "heartbeat" && request.keeper === leaving && request.readiness === "READINESS_READY") {
          lastRenewal = w.clock.now();
        }
      };
    }
    await w.until(() => lastRenewal > Number.NEGATIVE_INFINITY, 5000, "keeper 1 renews a lease");
    let offAt = Number.NaN;
    expect(await w.keeper(0).removeKeeper(leaving)).toEqual({
      changed: true,
      status: "leaving",
    });
    expect(await w.keeper(2).removeKeeper(w.keeperAddresses[1]!)).toEqual({
      changed: false,
      status: "leaving",
    });
    await w.until(
      () => {
        if (Number.isNaN(offAt) && w.keeper(1).ringStatus === "off-ring") offAt = w.clock.now();
        return !Number.isNaN(offAt) && keepersListed(w, [0, 2], [0, 2]);
      },
      20_000,
      "the removed keeper leaves the keeper ring",
    );
    expect(offAt - lastRenewal).toBeGreaterThan(w.keeper(0).timing.leaseMs);
    await w.until(() => slicesAre(w, [0, 1, 2], [0, 2]), 20_000, "its slice is with the others");
    expect(w.keeper(1).slice.size).toBe(0);
    expect(w.allReady(0)).toBe(true);

    // Stopping it now changes nothing: nobody waits for it, and nothing it owned needs taking over.
    const epoch = w.keeper(0).epoch;
    await w.stopKeeper(1);
    await w.until(() => w.clock.now() > 0, 1000, "a round");
    const start = w.clock.now();
    await w.until(() => w.clock.now() - start > 10_000, 11_000, "ten seconds pass");
    expect(w.keeper(0).epoch).toBe(epoch);
    expect(slicesAre(w, [0, 2], [0, 2])).toBe(true);
    expect(w.allReady(2)).toBe(true);
  }, 60_000);

  it("records a leaving keeper that died as removed", async () => {
    const w = await readyWorld({ keepers: 3, spareKeepers: 0 });
    await w.stopKeeper(2);
    expect(await w.keeper(0).removeKeeper(w.keeperAddresses[2]!)).toMatchObject({ status: "leaving" });
    await w.until(() => keepersListed(w, [0, 1], [0, 1]), 20_000, "the dead leaving keeper is removed");
    await w.until(() => slicesAre(w, [0, 1], [0, 1]) && w.allReady(1), 20_000, "its slice is taken over");
  }, 60_000);
});

describe("the keeper ring", () => {
  it("survives every keeper restarting from the original cluster file", async () => {
    const w = await readyWorld({ keepers: 3, spareKeepers: 1 });
    w.startKeeper(3);
    await w.keeper(0).addKeeper(w.keeperAddresses[3]!);
    await w.keeper(0).removeKeeper(w.keeperAddresses[0]!);
    await w.until(
      () => w.keeper(0).ringStatus === "off-ring" && slicesAre(w, [0, 1, 2, 3], [1, 2, 3]),
      30_000,
      "keeper 3 is on the ring, keeper 0 off it",
    );

    for (const i of [0, 1, 2, 3]) await w.stopKeeper(i);
    for (const i of [0, 1, 2, 3]) w.startKeeper(i);
    await w.until(
      () =>
        w.keeper(0).ringStatus === "off-ring" &&
        w.keeper(3).ringStatus === "member" &&
        slicesAre(w, [0, 1, 2, 3], [1, 2, 3]) &&
        w.allReady(1),
      30_000,
      "every keeper learns the keeper ring again from the backends",
    );
  }, 60_000);

  it("refuses a non-keeper, the last keeper, an address no keeper answers on, another name of a keeper, and a malformed one", async () => {
    const w = await readyWorld({ keepers: 2, spareKeepers: 0 });
    const records = () => JSON.stringify(w.keeper(0).status().keepers);
    const before = records();
    await expect(w.keeper(0).removeKeeper("127.0.0.1:7999")).rejects.toThrow(
      /"127\.0\.0\.1:7999" is not a keeper of this cluster/,
    );
    await expect(w.keeper(0).addKeeper("127.0.0.1:7799")).rejects.toThrow(
      /no keeper answers at 127\.0\.0\.1:7799: nothing recorded/,
    );
    await expect(w.keeper(0).addKeeper(w.seed[0]!)).rejects.toThrow(/is a backend of this cluster/);
    w.keeperAlias("localhost:7701", 1);
    await expect(w.keeper(0).addKeeper("localhost:7701")).rejects.toThrow(
      "localhost:7701 reaches the keeper 127.0.0.1:7701: add it by that address (its --advertise); nothing recorded",
    );
    await expect(w.keeper(0).addKeeper("not an address")).rejects.toThrow(/"not an address"/);
    expect(records()).toBe(before);

    await w.keeper(0).removeKeeper(w.keeperAddresses[1]!);
    await expect(w.keeper(0).removeKeeper(w.keeperAddresses[0]!)).rejects.toThrow(
      /is the last keeper on the keeper ring/,
    );
  }, 60_000);
});
