// Backends joining and leaving a running cluster, in process on a fake clock
// (membership-changes.ts): an added backend is emptied, filled with its share
// and made ready while the backends that held that share drop it; a removed
// one is copied off and leaves the ring; the membership survives every keeper
// restarting from the original cluster file; refusals change nothing.
import { afterEach, describe, expect, it } from "vitest";
import type { Keeper } from "../src/keeper.js";
import { DEFAULT_KEEPER_TIMING } from "../src/keeper-options.js";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const BINS = 60;

/** A fresh cluster, every backend ready, no data written. */
async function freshWorld(backends: number, keepers: number): Promise<KeeperWorld> {
  world = new KeeperWorld({ backends, keepers });
  world.startAll();
  const w = world;
  await w.until(() => w.allReady(), 15_000, "a fresh cluster is ready");
  return w;
}

async function readyWorld(backends: number): Promise<KeeperWorld> {
  const w = await freshWorld(backends, 3);
  for (let i = 0; i < BINS; i++) await w.write(`bin-${i}`, "k", `v${i}`);
  return w;
}

/** Every keeper holds the same view, every backend in it is ready, and no keeper has work in hand. */
function settled(w: KeeperWorld, members: number): boolean {
  const keepers = [0, 1, 2].map((i) => w.keeper(i));
  const epochs = new Set(keepers.map((keeper) => keeper.epoch));
  return (
    epochs.size === 1 &&
    keepers.every(
      (keeper) =>
        keeper.view().backends.length === members && w.allReady(w.keeperAddresses.indexOf(keeper.self)),
    ) &&
    keepers.every((keeper) => keeper.status().repairs.length === 0)
  );
}

/** For every bin: held by each of its replicas under `keeper`'s ring, and by no other backend of `among`. */
async function placedExactly(w: KeeperWorld, keeper: Keeper, among: string[]): Promise<string[]> {
  const wrong: string[] = [];
  for (let i = 0; i < BINS; i++) {
    const replicas = keeper.ring.replicasFor(`bin-${i}`);
    for (const address of among) {
      const held = await w.stored(address, `bin-${i}`, "k");
      const should = replicas.includes(address);
      if (should && held !== `v${i}`) wrong.push(`bin-${i} missing on ${address}`);
      if (!should && held !== undefined) wrong.push(`bin-${i} left on ${address}`);
    }
  }
  return wrong;
}

/**
 * Advances the clock to 50 ms past the keepers' next heartbeat tick (they
 * started together, and tick every interval from then): the tick after is
 * 950 ms away.
 */
async function justAfterATick(w: KeeperWorld): Promise<void> {
  const interval = DEFAULT_KEEPER_TIMING.heartbeatIntervalMs;
  const phase = (w.clock.now() - w.startedAt(0)) % interval;
  await w.clock.advance(interval - phase + 50);
}

describe("adding a backend", () => {
  it("fills it right after emptying it, without waiting for the next heartbeat round", async () => {
    const w = await readyWorld(5);
    const address = "127.0.0.1:7105";
    const added = w.startBackend(address);
    let emptiedAt: number | undefined;
    let firstScanAt: number | undefined;
    added.onCall = (call) => {
      if (call === "empty") emptiedAt ??= w.clock.now();
    };
    for (const backend of w.backends.values()) {
      const before = backend.onCall;
      backend.onCall = (call, detail) => {
        before?.(call, detail);
        if (call === "scan" && emptiedAt !== undefined) firstScanAt ??= w.clock.now();
      };
    }
    await w.keeper(1).addBackend(address, "");
    await w.until(() => settled(w, 6), 30_000, "the new backend is filled and ready everywhere");
    expect(emptiedAt).toBeDefined();
    expect(firstScanAt).toBeDefined();
    // A round a second (production timing): the fill used to start at the round after the empty.
    expect(firstScanAt! - emptiedAt!).toBeLessThan(DEFAULT_KEEPER_TIMING.heartbeatIntervalMs / 2);
  });

  it("is emptied by its owner right after the add, whichever keeper owns it, not a round later", async () => {
    const w = await readyWorld(5);
    const adder = w.keeper(1);
    const owners = new Set<string>();
    const ports = [7105, 7106, 7107, 7108];
    for (const [i, port] of ports.entries()) {
      const address = `127.0.0.1:${port}`;
      let emptiedAt: number | undefined;
      w.startBackend(address).onCall = (call) => {
        if (call === "empty") emptiedAt ??= w.clock.now();
      };
      await justAfterATick(w);
      const addedAt = w.clock.now();
      await adder.addBackend(address, "");
      await w.until(() => emptiedAt !== undefined, 5000, `${address} emptied`);
      // The next round is most of a second away: only a round at once empties it this soon.
      expect(emptiedAt! - addedAt, address).toBeLessThan(DEFAULT_KEEPER_TIMING.heartbeatIntervalMs / 2);
      await w.until(() => settled(w, 6 + i), 30_000, `${address} filled and ready everywhere`);
      const owner = adder.status().backends.find((backend) => backend.address === address)?.owner;
      owners.add(owner === adder.self ? "the keeper that added it" : "another keeper");
    }
    // Owned by the keeper that added it and by another: each wakes on the beats the add sends.
    expect([...owners].sort()).toEqual(["another keeper", "the keeper that added it"]);
  });

  it("is emptied right after the add by the only keeper, which no peer's beat wakes", async () => {
    const w = await freshWorld(4, 1);
    const address = "127.0.0.1:7104";
    let emptiedAt: number | undefined;
    w.startBackend(address).onCall = (call) => {
      if (call === "empty") emptiedAt ??= w.clock.now();
    };
    await justAfterATick(w);
    const addedAt = w.clock.now();
    await w.keeper(0).addBackend(address, "");
    await w.until(() => emptiedAt !== undefined, 5000, "emptied");
    expect(emptiedAt! - addedAt).toBeLessThan(DEFAULT_KEEPER_TIMING.heartbeatIntervalMs / 2);
  });

  it("empties it, fills it with its share, makes it ready, and the former holders drop that share", async () => {
    const w = await readyWorld(5);
    const address = "127.0.0.1:7105";
    const added = w.startBackend(address);
    // What it held before belongs to no bin of this cluster: the fill starts on an emptied store.
    await added.node.apply(
      [
        {
          bin: "bin-0",
          key: "k",
          kind: "set",
          value: "stale",
          stamp: { clock: 1_000_000n, writer: "0".repeat(16), seq: 1 },
        },
      ],
      0n,
    );

    expect(await w.keeper(1).addBackend(address, "")).toEqual({ changed: true, status: "member" });
    await w.until(() => settled(w, 6), 30_000, "the new backend is filled and ready everywhere");

    const keeper = w.keeper(0);
    expect(keeper.ring.members.map((member) => member.id)).toContain(address);
    expect(await placedExactly(w, keeper, w.addresses)).toEqual([]);
    const share = [...Array(BINS).keys()].filter((i) =>
      keeper.ring.replicasFor(`bin-${i}`).includes(address),
    );
    expect(share.length).toBeGreaterThan(0);
    expect(share.length).toBeLessThan(BINS);

    // Twice is a no-op.
    expect(await w.keeper(2).addBackend(address, "")).toEqual({ changed: false, status: "member" });
  });

  it("refuses an address nothing answers on, and a malformed one, recording nothing", async () => {
    const w = await readyWorld(4);
    const epoch = w.keeper(0).epoch;
    await expect(w.keeper(0).addBackend("127.0.0.1:7199", "")).rejects.toThrow(
      /nothing answers at 127\.0\.0\.1:7199/,
    );
    await expect(w.keeper(0).addBackend("not an address", "")).rejects.toThrow(/"not an address"/);
    await expect(w.keeper(0).addBackend("127.0.0.1:7104", "a\u0000b")).rejects.toThrow(
      'zone of 127.0.0.1:7104 holds a control character: "a\\u0000b"',
    );
    await expect(w.keeper(0).addBackend("0.0.0.0:7101", "")).rejects.toThrow(
      "backend address 0.0.0.0:7101 listens on every interface but names no host the others can reach",
    );
    await w.clock.advance(3000);
    expect(w.keeper(0).view().backends).toHaveLength(4);
    expect(w.keeper(0).epoch).toBe(epoch);
  });

  it("refuses a member under another address, recording nothing and changing nothing on it", async () => {
    const w = await readyWorld(4);
    const member = w.seed[1]!;
    w.alias("localhost:7101", member);
    const epoch = w.keeper(0).epoch;
    const kept = (await w.backend(member).node.state()).membersDigest;
    await expect(w.keeper(0).addBackend("localhost:7101", "")).rejects.toThrow(
      "localhost:7101 reaches the backend that is already the member 127.0.0.1:7101: one process on the ring twice would hold two copies of a bin; nothing recorded",
    );
    expect((await w.backend(member).node.state()).membersDigest).toBe(kept);

    await w.clock.advance(3000);
    expect(
      w
        .keeper(0)
        .view()
        .backends.map((entry) => entry.address),
    ).toEqual(w.seed);
    expect(w.keeper(0).epoch).toBe(epoch);
    expect(w.allReady()).toBe(true);
  });

  it("is remembered by the backends: every keeper restarted from the original file knows it", async () => {
    const w = await readyWorld(4);
    const address = "127.0.0.1:7104";
    w.startBackend(address);
    await w.keeper(0).addBackend(address, "zone-b");
    await w.until(() => settled(w, 5), 30_000, "the new backend is ready");

    for (const i of [0, 1, 2]) await w.stopKeeper(i);
    w.startAll();
    await w.until(() => settled(w, 5), 30_000, "restarted keepers know the added backend");
    const view = w.keeper(2).view();
    expect(view.backends.find((entry) => entry.address === address)).toMatchObject({
      state: "ready",
      zone: "zone-b",
    });
    expect(await placedExactly(w, w.keeper(2), w.addresses)).toEqual([]);
  });
});

describe("removing a backend", () => {
  it("copies its bins to their new replicas, then it leaves the ring", async () => {
    const w = await readyWorld(6);
    const address = w.seed[2]!;
    const leaving = w.backend(address);

    expect(await w.keeper(0).removeBackend(address)).toEqual({ changed: true, status: "leaving" });
    expect(await w.keeper(1).removeBackend(address)).toEqual({ changed: false, status: "leaving" });
    // It serves no read from the moment its owner hears of it.
    await w.until(() => !leaving.node.ready, 3000, "the leaving backend's readiness is revoked");
    await w.until(() => settled(w, 5), 30_000, "the leaving backend is gone from every view");

    const keeper = w.keeper(1);
    expect(keeper.ring.members.map((member) => member.id)).not.toContain(address);
    const remaining = w.seed.filter((a) => a !== address);
    expect(await placedExactly(w, keeper, remaining)).toEqual([]);
    // It was never emptied or filled again: nothing rejoins a leaving backend.
    expect(leaving.node.ready).toBe(false);
  });

  it("declares it dead as soon as it answers retired, whichever keeper took the removal, not a lease later", async () => {
    const w = await readyWorld(6);
    const ownerOf = (address: string) =>
      w
        .keeper(0)
        .status()
        .backends.find((backend) => backend.address === address)?.owner ?? "no owner";
    const takers = new Set<string>();
    for (const [i, address] of [w.seed[2]!, w.seed[3]!].entries()) {
      const owner = w.keeperAddresses.indexOf(ownerOf(address));
      // Once by its owner (woken by its own removal), once by another (woken by the beat).
      const taker = i === 0 ? owner : (owner + 1) % 3;
      takers.add(taker === owner ? "its owner" : "another keeper");
      await justAfterATick(w);
      const removedAt = w.clock.now();
      await w.keeper(taker).removeBackend(address);
      await w.until(() => w.stateOf(address, owner) === "dead", 5000, `${address} declared dead`);
      // A lease (2.5 s) or the next round (most of a second away) would come later than this.
      expect(w.clock.now() - removedAt, address).toBeLessThan(DEFAULT_KEEPER_TIMING.heartbeatIntervalMs / 2);
      expect(w.backend(address).node.readinessState).toBe("retired");
      await w.until(() => settled(w, 5 - i), 30_000, `${address} gone from every view`);
    }
    expect([...takers].sort()).toEqual(["another keeper", "its owner"]);
  });

  it("declares it dead at once with a single keeper, which no peer's beat wakes", async () => {
    const w = await freshWorld(4, 1);
    const address = w.seed[1]!;
    await justAfterATick(w);
    const removedAt = w.clock.now();
    await w.keeper(0).removeBackend(address);
    await w.until(() => w.stateOf(address) === "dead", 5000, `${address} declared dead`);
    expect(w.clock.now() - removedAt).toBeLessThan(DEFAULT_KEEPER_TIMING.heartbeatIntervalMs / 2);
  });

  it("waits for its lease to lapse when it does not answer retired (a backend from before retiring)", async () => {
    const w = await readyWorld(6);
    const address = w.seed[2]!;
    w.backend(address).tamper = (reply) => ({ ...reply, retired: false });
    await justAfterATick(w);
    const removedAt = w.clock.now();
    await w.keeper(0).removeBackend(address);
    await w.until(() => w.stateOf(address) === "dead", 10_000, `${address} declared dead`);
    expect(w.clock.now() - removedAt).toBeGreaterThan(DEFAULT_KEEPER_TIMING.leaseMs);
    await w.until(() => settled(w, 5), 30_000, `${address} gone from every view`);
  });

  it("refuses a non-member, and a removal that would leave fewer than 3 members", async () => {
    const w = await readyWorld(4);
    await expect(w.keeper(0).removeBackend("127.0.0.1:7999")).rejects.toThrow(
      /"127\.0\.0\.1:7999" is not a member/,
    );
    await w.keeper(0).removeBackend(w.seed[0]!);
    await expect(w.keeper(1).removeBackend(w.seed[1]!)).rejects.toThrow(
      /removing 127\.0\.0\.1:7101 would leave 2 members; a cluster needs at least 3/,
    );
    await w.until(() => settled(w, 3), 30_000, "the first removal completes");
    await expect(w.keeper(2).removeBackend(w.seed[0]!)).rejects.toThrow(/is not a member/);
  });
});
