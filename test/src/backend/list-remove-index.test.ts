// A list remove takes time in the occurrences of its value, not in the list's
// length: apply-entries.lua finds them through the list's value index (lv:)
// instead of reading every append below the remove into the script. Reading a
// list of ~120k elements held Redis for tens of milliseconds per remove, and
// every other call of that backend got BUSY or waited. Measured by Redis
// itself (SLOWLOG), not by this process's clock. The list here is as large as
// MAX_LIST_BYTES lets a client make it, out of small elements.
import { type Entry, type EntryKind, ResourceExhaustedError, WHOLE_RING } from "@binring/core";
import { expect, it } from "vitest";
import { engineOnRedis } from "../support/index.js";

/** store-engine.ts MAX_LIST_BYTES, and the bytes each element counts besides its value. */
const MAX_LIST_BYTES = 8 * 1024 * 1024;
const ELEMENT_OVERHEAD = 64;
/** 6-byte values: 70 bytes an element. */
const VALUE_BYTES = 6;
const NEEDLE = "needle";
const NEEDLES = 3;
/** As many elements as fit, the needles among them. */
const ELEMENTS = Math.floor(MAX_LIST_BYTES / (VALUE_BYTES + ELEMENT_OVERHEAD));
/** Slower than this (µs) and Redis logs the call. */
const SLOW_US = 10_000;

let seq = 0;

const store = engineOnRedis();

function entry(kind: EntryKind, value: string): Entry {
  seq++;
  return {
    bin: "big",
    key: "l",
    kind,
    value,
    stamp: { clock: BigInt(seq), writer: "0123456789abcdef", seq },
  };
}

/** Element i: a needle at three places spread over the list, else a distinct 6-byte value. */
function valueAt(i: number): string {
  return i % Math.floor(ELEMENTS / NEEDLES) === 7 ? NEEDLE : i.toString(36).padStart(VALUE_BYTES, "0");
}

it(`removes a value from a list of ${ELEMENTS} elements (MAX_LIST_BYTES) without a script call over ${SLOW_US / 1000} ms`, {
  timeout: 60_000,
}, async () => {
  const values = Array.from({ length: ELEMENTS }, (_, i) => valueAt(i));
  expect(values.filter((value) => value === NEEDLE)).toHaveLength(NEEDLES);
  // As client writes (limited): every one fits, the last one exactly.
  for (let i = 0; i < ELEMENTS; i += 20_000) {
    await store.engine.apply(
      values.slice(i, i + 20_000).map((value) => entry("append", value)),
      true,
      true,
    );
  }
  const listBytes = ELEMENTS * (VALUE_BYTES + ELEMENT_OVERHEAD);
  expect(Number(await store.redis.get("lb:3:bigl"))).toBe(listBytes);
  expect(await store.redis.zcard("l:3:bigl")).toBe(ELEMENTS);
  expect(await store.redis.zcard("lv:3:bigl")).toBe(ELEMENTS);
  await expect(
    store.engine.apply([entry("append", "x".repeat(MAX_LIST_BYTES - listBytes))], true, true),
  ).rejects.toThrow(ResourceExhaustedError);

  await store.redis.config("SET", "slowlog-log-slower-than", String(SLOW_US));
  await store.redis.slowlog("RESET");
  try {
    const [outcome] = await store.engine.apply([entry("remove", NEEDLE)], true, true);
    expect(outcome?.removed).toBe(NEEDLES);
    const slow = (await store.redis.slowlog("GET", 128)) as [number, number, number, string[]][];
    const slowScripts = slow.filter(([, , , args]) => /^eval/i.test(args[0] ?? ""));
    expect(slowScripts.map(([, , micros]) => micros)).toEqual([]);
  } finally {
    await store.redis.config("SET", "slowlog-log-slower-than", "10000");
  }

  // The index and the byte count followed the remove; the room it made takes an append again.
  expect(await store.redis.zcard("l:3:bigl")).toBe(ELEMENTS - NEEDLES);
  expect(await store.redis.zcard("lv:3:bigl")).toBe(ELEMENTS - NEEDLES);
  expect(Number(await store.redis.get("lb:3:bigl"))).toBe(
    listBytes - NEEDLES * (VALUE_BYTES + ELEMENT_OVERHEAD),
  );
  await store.engine.apply([entry("append", NEEDLE)], true, true);
  const list = await store.engine.getList("big", "l");
  expect(list).toHaveLength(ELEMENTS - NEEDLES + 1);
  expect(list.filter((value) => value === NEEDLE)).toHaveLength(1);
  expect(list.at(-1)).toBe(NEEDLE);

  // A dropped bin leaves neither its list's index nor its byte count behind.
  expect(await store.engine.drop(WHOLE_RING)).toBe(1);
  expect(await store.redis.keys("l*:3:big*")).toEqual([]);
});
