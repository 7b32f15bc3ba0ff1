// A backend holds as many bins as clients write to, so a Scan or a Drop finds
// the bins of its ranges by pages of the `bins` index (redis-bins.ts): one read
// of them all held Redis 1.3 s at two million bins, and its reply took 4.5 s,
// near the command timeout past which an empty before a refill fails on every
// try. Paged, every bin in the ranges is still found once: across
// pages, the ring's end and overlapping ranges, and where many bins share the
// point a page ends on.
import { BINS_PER_PAGE } from "@binring/backend";
import { type Entry, pointInRange, type RingRange, ringPoint, WHOLE_RING } from "@binring/core";
import { beforeEach, expect, it } from "vitest";
import { commandCalls, engineOnRedis } from "../support/index.js";

const BINS = 5 * BINS_PER_PAGE;
/** Bins moved to one point of the index, more than a page of them: a page ends among them. */
const SHARED = Math.floor(1.5 * BINS_PER_PAGE);
const SHARED_POINT = 123_456;

const store = engineOnRedis();
const bins = Array.from({ length: BINS }, (_, i) => `bin-${i}`);
const pointOf = (bin: string, i: number) => (i < SHARED ? SHARED_POINT : ringPoint(bin));

let seq = 0;
function entry(bin: string): Entry {
  seq++;
  return {
    bin,
    key: "k",
    kind: "set",
    value: "v",
    stamp: { clock: BigInt(seq), writer: "0123456789abcdef", seq },
  };
}

beforeEach(async () => {
  await store.redis.flushall();
  for (let i = 0; i < BINS; i += 500) await store.engine.apply(bins.slice(i, i + 500).map(entry));
  await store.redis.zadd("bins", "XX", ...bins.slice(0, SHARED).flatMap((bin) => [SHARED_POINT, bin]));
  await store.redis.config("RESETSTAT");
});

async function indexReads(): Promise<number> {
  return (await commandCalls(store.redis)).zrangebyscore ?? 0;
}

async function scannedBins(ranges: readonly RingRange[]): Promise<string[]> {
  const found: string[] = [];
  for await (const batch of store.engine.scan(ranges, 2000)) found.push(...batch.map((entry) => entry.bin));
  return found.sort();
}

const inRanges = (ranges: readonly RingRange[]) =>
  bins.filter((bin, i) => ranges.some(({ start, end }) => pointInRange(pointOf(bin, i), start, end))).sort();

it("a scan of the whole ring finds every bin once, reading the index a page at a time", async () => {
  expect(await scannedBins(WHOLE_RING)).toEqual([...bins].sort());
  expect(await indexReads()).toBeGreaterThanOrEqual(BINS / BINS_PER_PAGE);
});

it.each<[string, RingRange[]]>([
  ["a range across the ring's end", [{ start: 3_000_000_000, end: 1_000_000_000 }]],
  [
    "ranges that overlap",
    [
      { start: 0, end: 2_000_000_000 },
      { start: 1_000_000_000, end: 3_000_000_000 },
    ],
  ],
  ["a range ending on the shared point", [{ start: 4_000_000_000, end: SHARED_POINT }]],
  ["a range starting on the shared point", [{ start: SHARED_POINT, end: 2_000_000_000 }]],
  // More stretches than are read in one round, as a copy's ranges are.
  [
    "200 separate stretches",
    Array.from({ length: 200 }, (_, i) => ({ start: i * 20_000_000, end: i * 20_000_000 + 10_000_000 })),
  ],
])("a scan of %s finds each bin in it once and none outside", async (_, ranges) => {
  const expected = inRanges(ranges);
  expect(expected.length).toBeGreaterThan(0);
  expect(await scannedBins(ranges)).toEqual(expected);
});

it("a drop of the whole ring deletes every bin, reading the index a page at a time", async () => {
  expect(await store.engine.drop(WHOLE_RING)).toBe(BINS);
  expect(await store.redis.zcard("bins")).toBe(0);
  expect(await scannedBins(WHOLE_RING)).toEqual([]);
  expect(await indexReads()).toBeGreaterThanOrEqual(BINS / BINS_PER_PAGE);
});
