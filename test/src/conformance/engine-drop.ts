// Drop deletes exactly the bins whose ring point falls in the ranges, all of
// what they hold (strings, lists, tombstones), and keeps the store's counts
// right; a bin with more keys than one call can carry is scanned and dropped whole; told to
// stop, it stops between bins; given a rest, it deletes a few bins at a time and
// waits out the rest after each. Keepers drop released stretches and empty dead backends with it.

import { setTimeout as sleep } from "node:timers/promises";
import { PACED_DROP_BINS, type StoreEngine } from "@binring/backend";
import { type Entry, newWriterId, pointInRange, RING_SIZE, ringPoint, WHOLE_RING } from "@binring/core";
import { expect, it } from "vitest";

const BIN_COUNT = 300;
/** More keys than a Redis call's arguments may safely spread to. */
const BIG_BIN_KEYS = 150_000;

function entry(
  bin: string,
  key: string,
  kind: Entry["kind"],
  value: string,
  writer: string,
  seq: number,
): Entry {
  return { bin, key, kind, value, stamp: { clock: 1n, writer, seq } };
}

export function itDropsBinsInRanges(open: () => Promise<StoreEngine>): void {
  it("drops exactly the bins in the ranges, with everything they hold", async () => {
    const engine = await open();
    const writer = newWriterId();
    let seq = 0;
    const bins = Array.from({ length: BIN_COUNT }, (_, i) => `bin-${i}`);
    await engine.apply(
      bins.flatMap((bin) => [
        entry(bin, "k", "set", "v", writer, seq++),
        entry(bin, "gone", "set", "", writer, seq++),
        entry(bin, "l", "append", "x", writer, seq++),
      ]),
    );
    // A quarter of the ring: about a quarter of the bins.
    const range = { start: RING_SIZE / 8, end: (RING_SIZE / 8) * 3 };
    const inRange = bins.filter((bin) => pointInRange(ringPoint(bin), range.start, range.end));
    expect(inRange.length).toBeGreaterThan(0);
    expect(await engine.drop([range])).toBe(inRange.length);
    for (const bin of bins) {
      const dropped = inRange.includes(bin);
      expect(await engine.getString(bin, "k"), bin).toEqual(
        dropped ? null : expect.objectContaining({ value: "v" }),
      );
      expect(await engine.getString(bin, "gone"), bin).toEqual(
        dropped ? null : expect.objectContaining({ value: "" }),
      );
      expect(await engine.getList(bin, "l"), bin).toEqual(dropped ? [] : ["x"]);
    }
    const kept = BIN_COUNT - inRange.length;
    expect(await engine.stats()).toEqual({ bins: kept, keys: kept, lists: kept });
    expect(await engine.drop(WHOLE_RING)).toBe(kept);
    expect(await engine.stats()).toEqual({ bins: 0, keys: 0, lists: 0 });
  });

  it("stops before the next bins once told to, and counts only the bins it dropped", async () => {
    const engine = await open();
    const writer = newWriterId();
    const bins = Array.from({ length: BIN_COUNT }, (_, i) => `bin-${i}`);
    await engine.apply(bins.map((bin, i) => entry(bin, "k", "set", "v", writer, i)));
    let checks = 0;
    const dropped = await engine.drop(WHOLE_RING, () => ++checks > 1);
    expect(dropped).toBeGreaterThan(0);
    expect(dropped).toBeLessThan(BIN_COUNT);
    expect((await engine.stats()).bins).toBe(BIN_COUNT - dropped);
    expect(await engine.drop(WHOLE_RING, () => true)).toBe(0);
    expect((await engine.stats()).bins).toBe(BIN_COUNT - dropped);
  });

  it("given a rest, deletes a few bins at a time and waits out the rest after each round", async () => {
    const engine = await open();
    const writer = newWriterId();
    const bins = Array.from({ length: BIN_COUNT }, (_, i) => `bin-${i}`);
    await engine.apply(bins.map((bin, i) => entry(bin, "k", "set", "v", writer, i)));
    const droppedAt: { start: number; end: number }[] = [];
    const dropped = async () => BIN_COUNT - (await engine.stats()).bins;
    const rest = async (roundMs: number) => {
      expect(roundMs).toBeGreaterThanOrEqual(0);
      const start = await dropped();
      // Long enough that a drop going on meanwhile would delete more bins.
      if (droppedAt.length === 0) await sleep(50);
      droppedAt.push({ start, end: await dropped() });
    };
    expect(await engine.drop(WHOLE_RING, undefined, rest)).toBe(BIN_COUNT);
    expect(droppedAt.length).toBeGreaterThanOrEqual(Math.ceil(BIN_COUNT / PACED_DROP_BINS));
    for (const [i, { start, end }] of droppedAt.entries()) {
      expect(end, `round ${i}: nothing is deleted while the drop rests`).toBe(start);
      expect(start - (droppedAt[i - 1]?.end ?? 0), `round ${i}`).toBeLessThanOrEqual(PACED_DROP_BINS);
    }
    expect(droppedAt.at(-1)!.end).toBe(BIN_COUNT);
  });

  it("leaves nothing unindexed when entries are applied while their bins are dropped", async () => {
    const engine = await open();
    const writer = newWriterId();
    let seq = 0;
    const bins = Array.from({ length: BIN_COUNT }, (_, i) => `race-${i}`);
    const keys = ["old", "new-0", "new-1", "new-2"];
    await engine.apply(bins.map((bin) => entry(bin, "old", "set", "v", writer, seq++)));
    const writes = Promise.all(
      bins.map(async (bin) => {
        for (const key of keys.slice(1)) await engine.apply([entry(bin, key, "set", "v", writer, seq++)]);
      }),
    );
    await Promise.all([engine.drop(WHOLE_RING), writes]);
    // Whatever survived the race is indexed, so a second drop finds it and nothing is left.
    await engine.drop(WHOLE_RING);
    for (const bin of bins) {
      for (const key of keys) expect(await engine.getString(bin, key), `${bin} ${key}`).toBeNull();
    }
    expect(await engine.stats()).toEqual({ bins: 0, keys: 0, lists: 0 });
  });

  it("scans and drops a bin with more keys than one call can carry", async () => {
    const engine = await open();
    const writer = newWriterId();
    for (let i = 0; i < BIG_BIN_KEYS; i += 10_000) {
      await engine.apply(
        Array.from({ length: 10_000 }, (_, j) => entry("big", `k${i + j}`, "set", "v", writer, i + j)),
      );
    }
    expect((await engine.stats()).keys).toBe(BIG_BIN_KEYS);
    let scanned = 0;
    for await (const batch of engine.scan(WHOLE_RING, 2000)) scanned += batch.length;
    expect(scanned).toBe(BIG_BIN_KEYS);
    expect(await engine.drop(WHOLE_RING)).toBe(1);
    expect(await engine.stats()).toEqual({ bins: 0, keys: 0, lists: 0 });
    expect(await engine.keys("big", {})).toEqual([]);
  });
}
