// A bin holds as many keys as clients write to it, so everything a backend
// does to a whole bin goes in bounded steps. Dropping it: lua/drop-bin.lua
// deletes at most DROP_KEYS_PER_CALL keys a call and is called again until
// the bin is gone; one script for a whole bin held Redis for half a second at
// 150,000 keys, and at a million past the backend's 5 s command timeout, so
// the drop failed, and so did every other call of that backend meanwhile
// (measured by Redis itself, SLOWLOG). Scanning it for a copy: its keys are
// paged and its values read a few MiB at a time; a whole bin read at once sat
// in memory, one of 200 values of 8 MiB did not come back within the command
// timeout, so its repair failed every time, and sizing a million keys in one
// script held Redis three and a half seconds.
import { DROP_KEYS_PER_CALL } from "@binring/backend";
import { type Entry, type EntryKind, MESSAGE_BUDGET_BYTES, newWriterId, WHOLE_RING } from "@binring/core";
import { beforeEach, expect, it } from "vitest";
import { engineOnRedis } from "../support/index.js";

const KEYS = 150_000;
const LISTS = 2_000;
/**
 * Slower than this (µs) and Redis logs the call. A call of the drop takes 2–3 ms, and up to
 * about 10 while every test file runs at once; the whole bin in one script took 430.
 */
const SLOW_US = 100_000;

const writer = newWriterId();
let seq = 0;

const store = engineOnRedis();
beforeEach(async () => {
  await store.redis.flushall();
});

function entry(bin: string, key: string, kind: EntryKind, value: string): Entry {
  seq++;
  return { bin, key, kind, value, stamp: { clock: BigInt(seq), writer, seq } };
}

/** `keys` string keys (every tenth a deletion) and `lists` lists of two elements in `bin`. */
async function fill(bin: string, keys: number, lists: number): Promise<void> {
  for (let i = 0; i < keys; i += 10_000) {
    const count = Math.min(10_000, keys - i);
    await store.engine.apply(
      Array.from({ length: count }, (_, j) => entry(bin, `k${i + j}`, "set", (i + j) % 10 === 0 ? "" : "v")),
    );
  }
  await store.engine.apply(
    Array.from({ length: lists }, (_, j) => [
      entry(bin, `l${j}`, "append", "a"),
      entry(bin, `l${j}`, "append", "b"),
    ]).flat(),
  );
}

it(`scans and drops a bin of ${KEYS} keys and ${LISTS} lists without a Redis call over ${SLOW_US / 1000} ms, leaving nothing`, {
  timeout: 60_000,
}, async () => {
  await fill("big", KEYS, LISTS);
  await fill("small", 10, 1);
  expect(await store.engine.stats()).toEqual({ bins: 2, keys: KEYS - KEYS / 10 + 9, lists: LISTS + 1 });

  await store.redis.config("SET", "slowlog-log-slower-than", String(SLOW_US));
  await store.redis.slowlog("RESET");
  try {
    const scanned = new Set<string>();
    for await (const batch of store.engine.scan(WHOLE_RING, 2000)) {
      for (const { bin, key, kind, value } of batch) scanned.add(`${bin} ${key} ${kind} ${value}`);
    }
    expect(scanned.size).toBe(KEYS + 2 * LISTS + 10 + 2);
    expect(await store.engine.drop(WHOLE_RING)).toBe(2);
    const slow = (await store.redis.slowlog("GET", 128)) as [number, number, number, string[]][];
    expect(slow.map(([, , micros, args]) => `${args[0]} ${micros} µs`)).toEqual([]);
  } finally {
    await store.redis.config("SET", "slowlog-log-slower-than", "10000");
  }
  expect(await store.engine.stats()).toEqual({ bins: 0, keys: 0, lists: 0 });
  expect(await store.redis.keys("*big*")).toEqual([]);
  expect(await store.redis.keys("*small*")).toEqual([]);
});

it("a drop stopped part way through a bin leaves the rest indexed and counted, and a later drop finishes it", async () => {
  const keys = DROP_KEYS_PER_CALL * 10;
  await fill("big", keys, 0);
  const live = keys - keys / 10;
  let checks = 0;
  // One round: one call for the bin, then told to stop.
  expect(await store.engine.drop(WHOLE_RING, () => ++checks > 1)).toBe(0);
  const left = await store.engine.keys("big", {});
  expect(left.length).toBeGreaterThan(live - DROP_KEYS_PER_CALL - 1);
  expect(left.length).toBeLessThan(live);
  expect(await store.engine.stats()).toEqual({ bins: 1, keys: left.length, lists: 0 });
  for (const key of left.slice(0, 100))
    expect(await store.engine.getString("big", key)).toMatchObject({ value: "v" });

  expect(await store.engine.drop(WHOLE_RING)).toBe(1);
  expect(await store.engine.stats()).toEqual({ bins: 0, keys: 0, lists: 0 });
  expect(await store.redis.keys("*big*")).toEqual([]);
});

it("scans a bin of large values a few MiB at a time: what is deleted after the first batch is not read", async () => {
  const values = 24;
  const value = "x".repeat(1024 * 1024);
  for (let i = 0; i < values; i++) await store.engine.apply([entry("big", `k${i}`, "set", value)]);
  const scan = store.engine.scan(WHOLE_RING, 1000)[Symbol.asyncIterator]();
  const first = await scan.next();
  expect(first.done).toBe(false);
  const firstKeys = new Set(first.value!.map((e: Entry) => e.key));
  expect(firstKeys.size).toBeLessThanOrEqual(MESSAGE_BUDGET_BYTES / value.length + 1);
  // Everything not sent yet goes; a scan that read the whole bin up front would still send it.
  for (let i = 0; i < values; i++) if (!firstKeys.has(`k${i}`)) await store.redis.del(`s:3:bigk${i}`);
  let later = 0;
  for (let next = await scan.next(); !next.done; next = await scan.next()) later += next.value.length;
  expect(firstKeys.size + later).toBeLessThan(values / 2);
});
