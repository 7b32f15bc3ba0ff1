// The string read cache on its own: observations merge by stamp whatever
// order they arrive in, an observation older than the last clear is dropped,
// and memory stays bounded with the least recently used keys going first.
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
    const generation = cache.generation;
    cache.observe("k", entry(5, "new"), generation);
    // A read sent before the write above, answered after it.
    cache.observe("k", entry(3, "old"), generation);
    cache.observe("k", null, generation);
    expect(cache.get("k")).toEqual(entry(5, "new"));
    cache.observe("k", entry(7, "newer"), generation);
    expect(cache.get("k")).toEqual(entry(7, "newer"));
  });

  it("remembers that the store holds no entry, until one is observed", () => {
    const cache = new StringCache(1 << 20);
    expect(cache.get("k")).toBeUndefined();
    cache.observe("k", null, cache.generation);
    expect(cache.get("k")).toBeNull();
    cache.observe("k", entry(1, "v"), cache.generation);
    expect(cache.get("k")).toEqual(entry(1, "v"));
  });

  it("drops observations made before the last clear", () => {
    const cache = new StringCache(1 << 20);
    const before = cache.generation;
    cache.observe("k", entry(1, "v"), before);
    cache.clear();
    expect(cache.get("k")).toBeUndefined();
    // A read that started before the clear and answered after it saw a store that may have changed since.
    cache.observe("k", entry(2, "stale"), before);
    expect(cache.get("k")).toBeUndefined();
    cache.observe("k", entry(3, "fresh"), cache.generation);
    expect(cache.get("k")).toEqual(entry(3, "fresh"));
  });

  it("stays within its memory bound, evicting the least recently used keys first", () => {
    const value = "x".repeat(1000);
    // Room for 17 entries of about 1.1 kB.
    const cache = new StringCache(20_000);
    for (let i = 0; i < 15; i++) cache.observe(`k${i}`, entry(i, value), cache.generation);
    expect(cache.get("k0")).toBeDefined();
    for (let i = 15; i < 18; i++) cache.observe(`k${i}`, entry(i, value), cache.generation);
    // k1 was the least recently used once k0 had been read.
    expect(cache.get("k1")).toBeUndefined();
    expect(cache.get("k0")).toEqual(entry(0, value));
    for (let i = 18; i < 1000; i++) cache.observe(`k${i}`, entry(i, value), cache.generation);
    expect(cache.size).toBe(17);
    expect(cache.get("k999")).toEqual(entry(999, value));
  });

  it("keeps nothing when its bound is 0", () => {
    const cache = new StringCache(0);
    cache.observe("k", entry(1, "v"), cache.generation);
    expect(cache.get("k")).toBeUndefined();
  });
});
