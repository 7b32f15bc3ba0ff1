// The string read cache on its own: observations merge by stamp whatever
// order they arrive in, an observation older than the last clear is dropped,
// an eviction never lets an older entry come back, and memory stays bounded
// with the least recently used keys going first.
import type { Stamp } from "@binring/core";
import { describe, expect, it } from "vitest";
import { StringCache } from "../src/string-cache.js";

const WRITER = "00000000000000aa";

function entry(clock: number, value: string) {
  const stamp: Stamp = { clock: BigInt(clock), writer: WRITER, seq: 0 };
  return { stamp, value };
}

describe("StringCache", () => {
  it("keeps the entry with the greatest stamp, whatever order observations arrive in", () => {
    const cache = new StringCache(1 << 20);
    const startedAt = cache.epoch;
    cache.observe("k", entry(5, "new"), startedAt);
    // A read sent before the write above, answered after it.
    cache.observe("k", entry(3, "old"), startedAt);
    cache.observe("k", null, startedAt);
    expect(cache.get("k")).toEqual(entry(5, "new"));
    cache.observe("k", entry(7, "newer"), startedAt);
    expect(cache.get("k")).toEqual(entry(7, "newer"));
  });

  it("of two entries with one stamp keeps the greater value in UTF-8 bytes, as the store does", () => {
    // UTF-16 code units order these the other way round.
    const [lower, greater] = [entry(5, "\uFF61"), entry(5, "\u{1F600}")];
    for (const order of [
      [lower, greater],
      [greater, lower],
    ]) {
      const cache = new StringCache(1 << 20);
      for (const observed of order) cache.observe("k", observed, cache.epoch);
      expect(cache.get("k")).toEqual(greater);
    }
  });

  it("remembers that the store holds no entry, until one is observed", () => {
    const cache = new StringCache(1 << 20);
    expect(cache.get("k")).toBeUndefined();
    cache.observe("k", null, cache.epoch);
    expect(cache.get("k")).toBeNull();
    cache.observe("k", entry(1, "v"), cache.epoch);
    expect(cache.get("k")).toEqual(entry(1, "v"));
  });

  it("drops observations made before the last clear", () => {
    const cache = new StringCache(1 << 20);
    const before = cache.epoch;
    cache.observe("k", entry(1, "v"), before);
    cache.clear();
    expect(cache.get("k")).toBeUndefined();
    // A read that started before the clear and answered after it saw a store that may have changed since.
    cache.observe("k", entry(2, "stale"), before);
    expect(cache.get("k")).toBeUndefined();
    cache.observe("k", entry(3, "fresh"), cache.epoch);
    expect(cache.get("k")).toEqual(entry(3, "fresh"));
  });

  it("stays within its memory bound, evicting the least recently used keys first", () => {
    const value = "x".repeat(1000);
    // Room for 17 entries of about 1.1 kB.
    const cache = new StringCache(20_000);
    for (let i = 0; i < 15; i++) cache.observe(`k${i}`, entry(i, value), cache.epoch);
    expect(cache.get("k0")).toBeDefined();
    for (let i = 15; i < 18; i++) cache.observe(`k${i}`, entry(i, value), cache.epoch);
    // k1 was the least recently used once k0 had been read.
    expect(cache.get("k1")).toBeUndefined();
    expect(cache.get("k0")).toEqual(entry(0, value));
    for (let i = 18; i < 1000; i++) cache.observe(`k${i}`, entry(i, value), cache.epoch);
    expect(cache.size).toBe(17);
    expect(cache.get("k999")).toEqual(entry(999, value));
  });

  it("never brings back an entry older than one it evicted", () => {
    const cache = new StringCache(1000);
    const readStarted = cache.epoch;
    // A write lands while the read is in flight; its entry is too large to keep.
    cache.observe("k", entry(20, "x".repeat(2000)), cache.epoch);
    expect(cache.get("k")).toBeUndefined();
    // The read's reply, from before the write, must not be taken for the key's value.
    cache.observe("k", entry(10, "old"), readStarted);
    expect(cache.get("k")).toBeUndefined();

    const small = new StringCache(300);
    const started = small.epoch;
    small.observe("k", entry(20, "new"), small.epoch);
    // Pushes "k" out as the least recently used.
    small.observe("other", entry(1, "y".repeat(100)), small.epoch);
    expect(small.get("k")).toBeUndefined();
    small.observe("k", entry(10, "old"), started);
    expect(small.get("k")).toBeUndefined();
  });

  it("forgets the older entry when a newer one is too large to keep", () => {
    const cache = new StringCache(1000);
    cache.observe("k", entry(10, "old"), cache.epoch);
    cache.observe("k", entry(20, "x".repeat(2000)), cache.epoch);
    expect(cache.get("k")).toBeUndefined();
  });

  it("still merges into a cached key after evictions elsewhere", () => {
    const cache = new StringCache(400);
    const started = cache.epoch;
    cache.observe("k", entry(10, "v"), cache.epoch);
    cache.observe("a", entry(1, "y".repeat(60)), cache.epoch);
    cache.get("k");
    cache.observe("b", entry(1, "y".repeat(60)), cache.epoch);
    expect(cache.get("a")).toBeUndefined();
    // "k" is still cached: merging by stamp stays exact.
    cache.observe("k", entry(30, "w"), started);
    expect(cache.get("k")).toEqual(entry(30, "w"));
  });

  it("takes a copied entry only for a key it holds, and lets no older read bring the key back", () => {
    const cache = new StringCache(1 << 20);
    cache.observe("hot", entry(5, "client"), cache.epoch);
    const readStarted = cache.epoch;
    cache.observeCopy("hot", entry(9, "copied"), cache.epoch);
    expect(cache.get("hot")).toEqual(entry(9, "copied"));
    cache.observeCopy("cold", entry(9, "copied"), cache.epoch);
    expect(cache.get("cold")).toBeUndefined();
    expect(cache.size).toBe(1);
    // A read sent before the copy landed, answered after it: older than the store now holds.
    cache.observe("cold", entry(3, "before the copy"), readStarted);
    expect(cache.get("cold")).toBeUndefined();
    cache.observe("cold", entry(9, "copied"), cache.epoch);
    expect(cache.get("cold")).toEqual(entry(9, "copied"));
  });

  it("keeps nothing when its bound is 0", () => {
    const cache = new StringCache(0);
    cache.observe("k", entry(1, "v"), cache.epoch);
    expect(cache.get("k")).toBeUndefined();
  });
});
