// Records taken in due order (timed-records.ts), as the memory engine expires
// its write records and remove counts and sweeps its tombstones.
import type { Entry } from "@binring/core";
import { describe, expect, it } from "vitest";
import { MemoryEngine } from "../src/memory-engine.js";
import { WRITE_RECORD_TTL_SECONDS } from "../src/store-engine.js";
import { TimedRecords } from "../src/timed-records.js";

describe("TimedRecords", () => {
  it("takes the records due by a time, oldest first, at most `limit` at a time", () => {
    const records = new TimedRecords<string>();
    records.set("a", "A", 10);
    records.set("b", "B", 20);
    records.set("c", "C", 30);
    expect(records.takeDue(9)).toEqual([]);
    expect(records.takeDue(25, 1)).toEqual([["a", "A"]]);
    expect(records.takeDue(25)).toEqual([["b", "B"]]);
    expect(records.get("b")).toBeUndefined();
    expect(records.get("c")).toEqual({ value: "C", at: 30 });
    expect(records.size).toBe(1);
  });

  it("keeps a key set again until its new time, with its new value", () => {
    const records = new TimedRecords<number>();
    records.set("k", 1, 10);
    records.set("other", 0, 15);
    records.set("k", 2, 20);
    expect(records.takeDue(15)).toEqual([["other", 0]]);
    expect(records.get("k")).toEqual({ value: 2, at: 20 });
    expect(records.takeDue(20)).toEqual([["k", 2]]);
    expect(records.size).toBe(0);
  });

  it("keeps one slot per key however often it is set, and still takes each in order", () => {
    const records = new TimedRecords<number>();
    for (let at = 0; at < 100_000; at++) records.set(`k${at % 3}`, at, at);
    expect(records.size).toBe(3);
    expect(records.takeDue(99_997)).toEqual([["k1", 99_997]]);
    expect(records.takeDue(Number.POSITIVE_INFINITY)).toEqual([
      ["k2", 99_998],
      ["k0", 99_999],
    ]);
  });

  it("takes a million records that fell due one by one, each as a new one is set, in bounded time", () => {
    // What a Map walked from its front cost: minutes for this many, each walk
    // stepping over every slot taken before it (the test's timeout fails it).
    const records = new TimedRecords<number>();
    const ttl = 200_000;
    let taken = 0;
    for (let now = 0; now < 1_000_000; now++) {
      taken += records.takeDue(now - 1).length;
      records.set(`w${now}`, now, now + ttl);
    }
    expect(taken).toBe(1_000_000 - ttl - 1);
    expect(records.size).toBe(ttl + 1);
  });
});

describe("the memory engine's write records", () => {
  it("expire after their TTL while writes go on, hundreds of thousands of them in bounded time", {
    timeout: 20_000,
  }, async () => {
    // Four records per ms of the engine's clock for twice the TTL: the first half expires as the
    // second is set. Each expiry walking a Map from its front took minutes for these (the timeout fails it).
    let now = 0;
    const engine = new MemoryEngine({ now: () => now });
    const ttlMs = WRITE_RECORD_TTL_SECONDS * 1000;
    const writer = "00000000000000ab";
    const set = (seq: number): Entry => ({
      bin: "b",
      key: `k${seq % 100}`,
      kind: "set",
      value: "v",
      stamp: { clock: BigInt(seq + 1), writer, seq },
    });
    let seq = 0;
    for (now = 0; now < 2 * ttlMs; now++) {
      await engine.apply([set(seq++), set(seq++), set(seq++), set(seq++)]);
    }
    expect(await engine.claim(writer, 0)).toBeNull();
    expect(await engine.claim(writer, seq - 1)).toEqual(set(seq - 1).stamp);
    // The last record before the TTL's end is gone, the first after it held.
    const boundary = 4 * (now - ttlMs);
    expect(await engine.claim(writer, boundary - 1)).toBeNull();
    expect(await engine.claim(writer, boundary)).toEqual(set(boundary).stamp);
  });
});
