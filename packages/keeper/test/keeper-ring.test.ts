// Slice ownership from the keeper ring, and takeover decisions on a fake
// clock: who owns what while every keeper lives, when one falls silent, when
// it returns (hand-back), and after a restart with no memory.
import { describe, expect, it } from "vitest";
import { KeeperPeers, type PeerBeat } from "../src/keeper-peers.js";
import { KeeperRing } from "../src/keeper-ring.js";

const keepers = ["10.0.1.0:7600", "10.0.1.1:7600", "10.0.1.2:7600"];
const backends = Array.from({ length: 60 }, (_, i) => `10.0.0.${i}:7100`);
const ring = new KeeperRing(keepers);
const everyone = () => true;
const DEAD_AFTER_MS = 3000;

function beat(slice: Iterable<string>, overrides: Partial<PeerBeat> = {}): PeerBeat {
  return {
    incarnation: "a",
    slice: new Set(slice),
    working: new Set(),
    maxClock: 0n,
    grantAges: new Map(),
    withheld: new Set(),
    ...overrides,
  };
}

/** Peers as keeper `self` knows them at time `now`, having heard every other keeper claim its natural slice. */
function peersOf(self: string, now: number, silent: string[] = []): KeeperPeers {
  const peers = new KeeperPeers(self, keepers, DEAD_AFTER_MS, 0);
  const slices = ring.slices(backends, everyone);
  for (const peer of keepers) {
    if (peer !== self && !silent.includes(peer)) peers.heard(peer, beat(slices.get(peer)!), now);
  }
  return peers;
}

describe("KeeperRing", () => {
  it("gives every backend to exactly one keeper, and every keeper some", () => {
    const slices = ring.slices(backends, everyone);
    const owned = [...slices.values()].flat();
    expect(owned.sort()).toEqual([...backends].sort());
    for (const keeper of keepers) expect(slices.get(keeper)!.length).toBeGreaterThan(0);
  });

  it("moves only a dead keeper's backends, to live keepers, and back when it returns", () => {
    const before = ring.slices(backends, everyone);
    const dead = keepers[1]!;
    const after = ring.slices(backends, (k) => k !== dead);
    expect(after.has(dead)).toBe(false);
    for (const keeper of keepers.filter((k) => k !== dead)) {
      // Survivors keep all they had and gain only the dead one's backends.
      expect(after.get(keeper)).toEqual(expect.arrayContaining(before.get(keeper)!));
      for (const gained of after.get(keeper)!.filter((b) => !before.get(keeper)!.includes(b))) {
        expect(before.get(dead)).toContain(gained);
      }
    }
    expect(ring.slices(backends, everyone)).toEqual(before);
  });

  it("gives everything to the last live keeper", () => {
    const last = keepers[2]!;
    expect(
      ring
        .slices(backends, (k) => k === last)
        .get(last)!
        .sort(),
    ).toEqual([...backends].sort());
  });

  it("is the same whatever order the keepers are listed in", () => {
    const reversed = new KeeperRing([...keepers].reverse());
    for (const backend of backends)
      expect(reversed.ownerOf(backend, everyone)).toBe(ring.ownerOf(backend, everyone));
  });

  it("refuses more than sixteen keepers", () => {
    expect(() => new KeeperRing(Array.from({ length: 17 }, (_, i) => `k${i}:1`))).toThrow(/at most 16/);
  });
});

describe("KeeperPeers: takeover on a fake clock", () => {
  const [a, b, c] = keepers as [string, string, string];
  const natural = ring.slices(backends, everyone);

  it("owns nothing until it has heard from every peer it presumes live", () => {
    const peers = new KeeperPeers(a, keepers, DEAD_AFTER_MS, 0);
    expect(peers.ownedSlice(ring, backends, 100).size).toBe(0);
    peers.heard(b, beat(natural.get(b)!), 100);
    expect(peers.ownedSlice(ring, backends, 200).size).toBe(0);
    peers.heard(c, beat(natural.get(c)!), 200);
    expect([...peers.ownedSlice(ring, backends, 300)].sort()).toEqual([...natural.get(a)!].sort());
  });

  it("takes a silent peer's slice over once it has been silent past the limit, not before", () => {
    const peers = peersOf(a, 0);
    peers.heard(c, beat(natural.get(c)!), 3500);
    // b last heard at 0: still live at 3000, dead after.
    expect(peers.isLive(b, 3000)).toBe(true);
    expect([...peers.ownedSlice(ring, backends, 3000)].sort()).toEqual([...natural.get(a)!].sort());
    expect(peers.isLive(b, 3001)).toBe(false);
    const taken = peers.ownedSlice(ring, backends, 3001);
    const expected = ring.slices(backends, (k) => k !== b).get(a)!;
    expect([...taken].sort()).toEqual([...expected].sort());
    expect(taken.size).toBeGreaterThan(natural.get(a)!.length);
  });

  it("never owns what a live peer still claims: a hand-back waits for the peer to let go", () => {
    // c took b's backends while b was away; b is back and heard from c, whose beat still claims them.
    const peers = new KeeperPeers(b, keepers, DEAD_AFTER_MS, 0);
    const cWhileBWasAway = ring.slices(backends, (k) => k !== b).get(c)!;
    peers.heard(a, beat(ring.slices(backends, (k) => k !== b).get(a)!), 10);
    peers.heard(c, beat(cWhileBWasAway), 10);
    const owned = peers.ownedSlice(ring, backends, 20);
    for (const backend of owned) expect(cWhileBWasAway).not.toContain(backend);
    // c hears from b, lets go, and says so in its next beat: b owns its whole natural slice again.
    peers.heard(a, beat(natural.get(a)!), 30);
    peers.heard(c, beat(natural.get(c)!), 30);
    expect([...peers.ownedSlice(ring, backends, 40)].sort()).toEqual([...natural.get(b)!].sort());
  });

  it("reports the peer that still works on a backend, and the largest clock of live peers", () => {
    const peers = peersOf(a, 0);
    const backend = natural.get(b)![0]!;
    peers.heard(b, beat(natural.get(b)!, { working: new Set([backend]), maxClock: 42n }), 100);
    expect(peers.workingOn(backend, 200)).toBe(b);
    expect(peers.maxClock(200)).toBe(42n);
    // A dead peer's work and clock no longer count.
    expect(peers.workingOn(backend, 100 + DEAD_AFTER_MS + 1)).toBeUndefined();
  });

  it("notices a restarted peer (a new incarnation)", () => {
    const peers = peersOf(a, 0);
    expect(peers.heard(b, beat(natural.get(b)!, { incarnation: "a" }), 10)).toBe(false);
    expect(peers.heard(b, beat(natural.get(b)!, { incarnation: "b" }), 20)).toBe(true);
  });

  it("after a stall of its own, presumes its peers live instead of taking their slices", () => {
    const peers = peersOf(a, 0);
    // The keeper itself was paused for 10 s: every peer looks silent.
    expect(peers.ownedSlice(ring, backends, 10_000).size).toBe(backends.length);
    peers.presumeLive(10_000);
    expect([...peers.ownedSlice(ring, backends, 10_000)].sort()).toEqual([...natural.get(a)!].sort());
  });

  it("knows which backends a live peer withholds from standby renewal", () => {
    const peers = peersOf(a, 0);
    const backend = natural.get(c)![0]!;
    peers.heard(c, beat(natural.get(c)!, { withheld: new Set([backend]) }), 100);
    expect(peers.withholds(backend, 200)).toBe(true);
    expect(peers.withholds(natural.get(c)![1] ?? "none", 200)).toBe(false);
  });
});
