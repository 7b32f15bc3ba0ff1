import { createHash } from "node:crypto";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { describe, expect, it } from "vitest";
import { ringPoint } from "../src/hash.js";
import { HashRing, type RingMember } from "../src/ring.js";
import { pointInRange, RING_SIZE } from "../src/ring-range.js";

const members = (n: number): RingMember[] =>
  Array.from({ length: n }, (_, i) => ({ id: `10.0.${i >> 8}.${i & 255}:7000` }));

const bins = (n: number) => Array.from({ length: n }, (_, i) => `bin-${i}`);

/** Seeded uniform integers in [0, 2^32), so a failure replays. */
function randomPoints(count: number, seed = 1): number[] {
  const generator = xoroshiro128plus(seed);
  return Array.from({ length: count }, () => uniformInt(generator, 0, RING_SIZE - 1));
}

const arcLength = (start: number, end: number) => (end > start ? end - start : RING_SIZE - start + end);

describe("ringPoint", () => {
  it("is the unsigned xxHash32 (seed 0) of the UTF-8 bytes", () => {
    // Reference values, computed by an independent xxHash32 over the UTF-8 encoding.
    expect(ringPoint("")).toBe(0x02cc5d05);
    expect(ringPoint("abc")).toBe(0x32d153ff);
    expect(ringPoint("é")).toBe(0x33a52927);
    expect(ringPoint("日本語")).toBe(0xc8ae20bd);
    expect(ringPoint("🦄")).toBe(0xf4628062);
  });

  it("always lands in [0, 2^32)", () => {
    for (const name of [...bins(1000), "x".repeat(5000)]) {
      const point = ringPoint(name);
      expect(Number.isInteger(point) && point >= 0 && point < RING_SIZE).toBe(true);
    }
  });
});

describe("HashRing placement", () => {
  it("is the same whatever order members are given in", () => {
    const given = members(12);
    const shuffled = [...given].sort((a, b) => ringPoint(a.id) - ringPoint(b.id));
    const a = new HashRing(given);
    const b = new HashRing([...given].reverse());
    const c = new HashRing(shuffled);
    expect(b.members).toEqual(a.members);
    expect(c.members).toEqual(a.members);
    const placements = (ring: HashRing) => bins(2000).map((bin) => ring.replicasFor(bin));
    expect(placements(b)).toEqual(placements(a));
    expect(placements(c)).toEqual(placements(a));
    expect(c.segments()).toEqual(a.segments());
  });

  it("gives `count` distinct replicas, or every live member when fewer", () => {
    const ring = new HashRing(members(6));
    const distinct = (count: number) =>
      bins(500).map((bin) => new Set(ring.replicasFor(bin, undefined, count)).size);
    expect(new Set(distinct(3))).toEqual(new Set([3]));
    expect(new Set(distinct(5))).toEqual(new Set([5]));
    expect(new Set(new HashRing(members(2)).replicasFor("x"))).toEqual(new Set(members(2).map((m) => m.id)));
    const live = new Set([members(6)[1]!.id, members(6)[4]!.id]);
    const placed = bins(100).map((bin) => ring.replicasFor(bin, (id) => live.has(id)));
    expect(placed.every((replicas) => replicas.length === 2 && replicas.every((id) => live.has(id)))).toBe(
      true,
    );
    expect(ring.replicasFor("x", () => false)).toEqual([]);
    expect(new HashRing([]).replicasFor("x")).toEqual([]);
  });

  it("skips dead members: the backups move up and the next live member joins", () => {
    const ring = new HashRing(members(6));
    for (const bin of bins(100)) {
      const [primary, first, second] = ring.replicasFor(bin) as [string, string, string];
      const withoutPrimary = ring.replicasFor(bin, (id) => id !== primary);
      expect(withoutPrimary.slice(0, 2)).toEqual([first, second]);
      expect([primary, first, second]).not.toContain(withoutPrimary[2]);
      expect(ring.replicasFor(bin, (id) => id !== first)).toEqual([primary, second, withoutPrimary[2]]);
    }
  });

  it("breaks ties between members sharing a point by id", () => {
    // These two ids' first virtual nodes hash to the same point, 3926943441.
    const tied = [{ id: "10.1.113.48:7000" }, { id: "10.0.197.255:7000" }];
    expect(ringPoint("10.1.113.48:7000#0")).toBe(ringPoint("10.0.197.255:7000#0"));
    for (const order of [tied, [...tied].reverse()]) {
      const ring = new HashRing(order, { virtualNodes: 1 });
      expect(ring.replicasAt(3926943441)).toEqual(["10.0.197.255:7000", "10.1.113.48:7000"]);
      expect(ring.segments()).toEqual([
        { start: 0, end: 0, replicas: ["10.0.197.255:7000", "10.1.113.48:7000"] },
      ]);
    }
  });
});

describe("HashRing.segments", () => {
  const ring = new HashRing(members(7), { virtualNodes: 32 });
  const dead = members(7)[2]!.id;
  const isLive = (id: string) => id !== dead;
  const segments = ring.segments(isLive);

  it("tiles the ring exactly once with maximal segments", () => {
    expect(segments.reduce((sum, { start, end }) => sum + arcLength(start, end), 0)).toBe(RING_SIZE);
    segments.forEach((segment, i) => {
      const next = segments[(i + 1) % segments.length]!;
      expect(next.start).toBe(segment.end);
      expect(next.replicas).not.toEqual(segment.replicas);
    });
    const holders = randomPoints(2000).map(
      (point) => segments.filter((s) => pointInRange(point, s.start, s.end)).length,
    );
    expect(new Set(holders)).toEqual(new Set([1]));
  });

  it("agrees with replicasAt at both ends of every segment and at random points", () => {
    const lastPoint = (end: number) => (end - 1 + RING_SIZE) % RING_SIZE;
    expect(segments.map(({ start }) => ring.replicasAt(start, isLive))).toEqual(
      segments.map((s) => s.replicas),
    );
    expect(segments.map(({ end }) => ring.replicasAt(lastPoint(end), isLive))).toEqual(
      segments.map((s) => s.replicas),
    );
    const points = randomPoints(2000, 2);
    expect(
      points.map((point) => segments.find((s) => pointInRange(point, s.start, s.end))?.replicas),
    ).toEqual(points.map((point) => ring.replicasAt(point, isLive)));
  });

  it("is the whole ring, once, when placement never changes", () => {
    expect(new HashRing(members(1)).segments()).toEqual([
      { start: 0, end: 0, replicas: [members(1)[0]!.id] },
    ]);
    expect(new HashRing([]).segments()).toEqual([]);
  });
});

describe("HashRing.changes", () => {
  it("lists exactly the points whose replicas differ, with both lists", () => {
    const ring = new HashRing(members(7), { virtualNodes: 32 });
    const dead = members(7)[3]!.id;
    const isLive = (id: string) => id !== dead;
    const changes = ring.changes(() => true, isLive);
    const points = randomPoints(2000, 3);
    const listed = points.map((point) =>
      changes
        .filter((c) => pointInRange(point, c.start, c.end))
        .map(({ before, after }) => ({ before, after })),
    );
    const expected = points.map((point) => {
      const before = ring.replicasAt(point);
      const after = ring.replicasAt(point, isLive);
      return before.join() === after.join() ? [] : [{ before, after }];
    });
    expect(listed).toEqual(expected);
    expect(expected.some((change) => change.length > 0)).toBe(true);
    expect(ring.changes(isLive, isLive)).toEqual([]);
  });
});

describe("HashRing balance and movement", () => {
  const N = 20;
  const sample = bins(20_000);
  const primaries = (ring: HashRing) => sample.map((bin) => ring.replicasFor(bin)[0]!);
  const before = primaries(new HashRing(members(N)));

  it("spreads primaries within 1.25 × the mean", () => {
    const counts = new Map<string, number>();
    for (const primary of before) counts.set(primary, (counts.get(primary) ?? 0) + 1);
    expect(counts.size).toBe(N);
    expect(Math.max(...counts.values()) / (sample.length / N)).toBeLessThanOrEqual(1.25);
  });

  it("moves only the newcomer's share when a member joins", () => {
    const newcomer = members(N + 1)[N]!.id;
    const after = primaries(new HashRing(members(N + 1)));
    const moved = after.filter((primary, i) => primary !== before[i]);
    expect(new Set(moved)).toEqual(new Set([newcomer]));
    expect(moved.length / sample.length).toBeLessThanOrEqual(1.2 / (N + 1));
  });

  it("moves only the leaver's bins when a member leaves", () => {
    const leaver = members(N)[0]!.id;
    const after = primaries(new HashRing(members(N).slice(1)));
    const movedFrom = before.filter((primary, i) => primary !== after[i]);
    expect(new Set(movedFrom)).toEqual(new Set([leaver]));
    expect(movedFrom.length / sample.length).toBeLessThanOrEqual(1.2 / N);
  });
});

describe("HashRing construction", () => {
  it("refuses duplicate and empty ids and bad virtual node counts", () => {
    expect(() => new HashRing([{ id: "a:1" }, { id: "b:1" }, { id: "a:1" }])).toThrow(/a:1 is listed twice/);
    expect(() => new HashRing([{ id: "" }])).toThrow(/must not be empty/);
    expect(() => new HashRing(members(2), { virtualNodes: 0 })).toThrow(/virtualNodes/);
    expect(() => new HashRing(members(2), { virtualNodes: 1.5 })).toThrow(/virtualNodes/);
  });

  it("keeps each member's zone", () => {
    const ring = new HashRing([
      { id: "b:1", zone: "west" },
      { id: "a:1", zone: "east" },
    ]);
    expect(ring.members).toEqual([
      { id: "a:1", zone: "east" },
      { id: "b:1", zone: "west" },
    ]);
  });
});

describe("HashRing zones", () => {
  const zoned = (n: number, zones: string[]): RingMember[] =>
    members(n).map((member, i) => ({ ...member, zone: zones[i % zones.length] }));
  const blindRings = new Map<HashRing, HashRing>();
  const zoneOf = (ring: HashRing) => new Map(ring.members.map((m) => [m.id, m.zone ?? ""]));

  /**
   * The placement rule, spelled out: the live members in walk order (the
   * zone-blind ring's full list), the first of each zone first, then the rest.
   */
  function expected(ring: HashRing, point: number, isLive: (id: string) => boolean, count = 3): string[] {
    const blind = blindRings.get(ring) ?? new HashRing(ring.members.map(({ id }) => ({ id })));
    blindRings.set(ring, blind);
    const walk = blind.replicasAt(point, isLive, ring.members.length);
    const zones = zoneOf(ring);
    const firsts = walk.filter(
      (id, i) => walk.findIndex((other) => zones.get(other) === zones.get(id)) === i,
    );
    return [...firsts, ...walk.filter((id) => !firsts.includes(id))].slice(0, count);
  }

  it("places exactly as before when no member has a zone, or all share one", () => {
    // Digest of placements computed by the zone-blind ring this one replaced.
    const digest = (ring: HashRing) => {
      const hash = createHash("sha256");
      const dead = new Set(["10.0.0.3:7000", "10.0.0.7:7000"]);
      for (let i = 0; i < 5000; i++) {
        hash.update(`${ring.replicasFor(`bin-${i}`).join(",")};`);
        hash.update(`${ring.replicasFor(`bin-${i}`, (id) => !dead.has(id)).join(",")};`);
      }
      return hash.digest("hex");
    };
    const ids = Array.from({ length: 12 }, (_, i) => `10.0.0.${i}:7000`);
    const before = "e65cd8d795ae1236cc538bfeaea6e1303fb3ba09607066e93adae33215797563";
    expect(digest(new HashRing(ids.map((id) => ({ id }))))).toBe(before);
    expect(digest(new HashRing(ids.map((id) => ({ id, zone: "zone-a" }))))).toBe(before);
  });

  it("puts a bin's three copies in three zones, the primary unchanged", () => {
    const ring = new HashRing(zoned(9, ["a", "b", "c"]));
    const blind = new HashRing(members(9));
    const zones = zoneOf(ring);
    for (const bin of bins(2000)) {
      const replicas = ring.replicasFor(bin);
      expect(new Set(replicas.map((id) => zones.get(id))).size).toBe(3);
      expect(replicas[0]).toBe(blind.replicasFor(bin)[0]);
    }
    expect(ring.zoneCount).toBe(3);
  });

  it("follows the rule under any liveness, and falls back to shared zones when zones run out", () => {
    const ring = new HashRing(zoned(10, ["a", "b", "c"]));
    const ids = ring.members.map((m) => m.id);
    const livenesses: ((id: string) => boolean)[] = [
      () => true,
      (id) => id !== ids[0],
      (id) => zoneOf(ring).get(id) !== "c", // a whole zone down: two zones for three copies
      (id) => zoneOf(ring).get(id) === "a", // one zone left
      (id) => id === ids[1] || id === ids[5],
    ];
    for (const isLive of livenesses) {
      for (const point of randomPoints(400, 7)) {
        expect(ring.replicasAt(point, isLive)).toEqual(expected(ring, point, isLive));
      }
    }
    const twoZones = new HashRing(zoned(6, ["a", "b"]));
    for (const bin of bins(500)) {
      const replicas = twoZones.replicasFor(bin);
      expect(replicas).toHaveLength(3);
      expect(new Set(replicas.map((id) => zoneOf(twoZones).get(id)))).toEqual(new Set(["a", "b"]));
    }
  });

  it("places a bin with a member dead exactly as a ring without that member", () => {
    // What makes scaling down safe: once the keepers have repaired a stopped backend, dropping it
    // from the cluster file moves nothing.
    for (const given of [zoned(9, ["a", "b", "c"]), zoned(7, ["a", "b"]), members(7)]) {
      const ring = new HashRing(given);
      for (const gone of [given[0]!.id, given[4]!.id]) {
        const smaller = new HashRing(given.filter((m) => m.id !== gone));
        for (const bin of bins(1000)) {
          expect(ring.replicasFor(bin, (id) => id !== gone)).toEqual(smaller.replicasFor(bin));
        }
      }
    }
  });

  it("keeps segments and changes consistent with replicasAt", () => {
    const ring = new HashRing(zoned(8, ["a", "b", "c"]), { virtualNodes: 32 });
    const dead = ring.members[2]!.id;
    const isLive = (id: string) => id !== dead;
    for (const segment of ring.segments(isLive)) {
      expect(ring.replicasAt(segment.start, isLive)).toEqual(segment.replicas);
    }
    const changes = ring.changes(() => true, isLive);
    for (const point of randomPoints(3000, 3)) {
      const before = ring.replicasAt(point);
      const after = ring.replicasAt(point, isLive);
      const change = changes.find((c) => pointInRange(point, c.start, c.end));
      if (before.join() === after.join()) expect(change).toBeUndefined();
      else expect(change).toMatchObject({ before, after });
    }
  });
});

describe("pointInRange", () => {
  it("is half-open and wraps around zero", () => {
    expect(pointInRange(5, 5, 10)).toBe(true);
    expect(pointInRange(10, 5, 10)).toBe(false);
    expect(pointInRange(1, 4_000_000_000, 5)).toBe(true);
    expect(pointInRange(3_000_000_000, 4_000_000_000, 5)).toBe(false);
    expect(pointInRange(123, 7, 7)).toBe(true);
  });
});
