import { describe, expect, it } from "vitest";
import { ringPoint } from "../src/hash.js";
import { HashRing } from "../src/ring.js";
import { pointInRange, RING_SIZE } from "../src/ring-range.js";

const members = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `10.0.0.${i}:7000` }));

describe("ringPoint", () => {
  it("is a deterministic unsigned 32-bit xxHash32 of the UTF-8 name", () => {
    expect(ringPoint("")).toBe(0x02cc5d05); // xxHash32 reference value of the empty input, seed 0
    expect(ringPoint("alice")).toBe(ringPoint("alice"));
    for (const name of ["a", "日本語", "🦄", "x".repeat(5000)]) {
      const point = ringPoint(name);
      expect(Number.isInteger(point) && point >= 0 && point < RING_SIZE).toBe(true);
    }
  });
});

describe("HashRing", () => {
  it("places the same way whatever order members are given in", () => {
    const a = new HashRing(members(6));
    const b = new HashRing([...members(6)].reverse());
    for (let i = 0; i < 500; i++) expect(a.replicasFor(`bin-${i}`)).toEqual(b.replicasFor(`bin-${i}`));
  });

  it("gives three distinct replicas, or every member when fewer", () => {
    const ring = new HashRing(members(6));
    for (let i = 0; i < 200; i++) {
      const replicas = ring.replicasFor(`bin-${i}`);
      expect(new Set(replicas).size).toBe(3);
    }
    expect(new HashRing(members(2)).replicasFor("x")).toHaveLength(2);
    expect(new HashRing([]).replicasFor("x")).toEqual([]);
  });

  it("skips dead members: the backups move up and the next live member joins", () => {
    const ring = new HashRing(members(6));
    for (let i = 0; i < 200; i++) {
      const [primary, first, second] = ring.replicasFor(`bin-${i}`) as [string, string, string];
      const withoutPrimary = ring.replicasFor(`bin-${i}`, (id) => id !== primary);
      expect(withoutPrimary.slice(0, 2)).toEqual([first, second]);
      expect(withoutPrimary[2]).not.toBe(primary);
      expect(ring.replicasFor(`bin-${i}`, (id) => id !== first)).toEqual([
        primary,
        second,
        withoutPrimary[2],
      ]);
    }
  });

  it("cuts the ring into segments consistent with replicasAt that cover it exactly once", () => {
    const ring = new HashRing(members(5), { virtualNodes: 16 });
    const isLive = (id: string) => id !== "10.0.0.2:7000";
    const segments = ring.segments(isLive);
    let covered = 0;
    for (const { start, end } of segments) covered += end > start ? end - start : RING_SIZE - start + end;
    expect(covered).toBe(RING_SIZE);
    for (let i = 0; i < 2000; i++) {
      const point = Math.floor((i * 2654435761) % RING_SIZE);
      const holding = segments.filter((s) => pointInRange(point, s.start, s.end));
      expect(holding).toHaveLength(1);
      expect(holding[0]!.replicas).toEqual(ring.replicasAt(point, isLive));
    }
  });

  it("spreads bins evenly and moves few when a member joins", () => {
    const bins = Array.from({ length: 20_000 }, (_, i) => `bin-${i}`);
    const ring = new HashRing(members(10));
    const counts = new Map<string, number>();
    for (const bin of bins) {
      const primary = ring.replicasFor(bin)[0]!;
      counts.set(primary, (counts.get(primary) ?? 0) + 1);
    }
    expect(Math.max(...counts.values()) / (bins.length / 10)).toBeLessThan(1.25);
    const grown = new HashRing(members(11));
    const moved = bins.filter((bin) => grown.replicasFor(bin)[0] !== ring.replicasFor(bin)[0]).length;
    expect(moved / bins.length).toBeLessThan(1.2 / 11);
  });

  it("refuses duplicate and empty ids", () => {
    expect(() => new HashRing([{ id: "a:1" }, { id: "a:1" }])).toThrow(/a:1 is listed twice/);
    expect(() => new HashRing([{ id: "" }])).toThrow(/must not be empty/);
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
