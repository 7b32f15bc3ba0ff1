// A list keeps a tombstone for every distinct value removed within the
// tombstone TTL, appended or not, so its tombstones are not bounded by the
// list's size: a Scan reads them by pages for all of a read's lists together
// (lua/list-tombstones.lua), never a whole hash in one HGETALL, which brought
// all of it in one reply however large.
// Every tombstone is still copied once, beside the lists' appends.
import { type Entry, MESSAGE_BUDGET_BYTES, newWriterId, WHOLE_RING } from "@binring/core";
import { beforeEach, expect, it } from "vitest";
import { commandCalls, engineOnRedis } from "../support/index.js";

const writer = newWriterId();
let seq = 0;
const store = engineOnRedis();

function entry(key: string, kind: Entry["kind"], value: string): Entry {
  seq++;
  return { bin: "queue", key, kind, value, stamp: { clock: BigInt(seq), writer, seq } };
}

async function applyInCalls(entries: Entry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += 200) await store.engine.apply(entries.slice(i, i + 200));
}

/** Script calls: EVALSHA, or EVAL where Redis did not hold the script yet. */
async function scriptCalls(): Promise<number> {
  const calls = await commandCalls(store.redis);
  return (calls.evalsha ?? 0) + (calls.eval ?? 0);
}

async function scanned(): Promise<Entry[]> {
  const entries: Entry[] = [];
  for await (const batch of store.engine.scan(WHOLE_RING, 2000)) entries.push(...batch);
  return entries;
}

const big = (i: number) => `${String(i).padStart(4, "0")}${"r".repeat(512 * 1024)}`;

beforeEach(async () => {
  await store.redis.flushall();
});

it("a list's tombstones past a read's budget are scanned in pages, each once, beside its appends", async () => {
  // 12 MiB of values removed that were never appended, three times a read's budget, and 3,000 small ones.
  const removedBig = Array.from({ length: Math.ceil((3 * MESSAGE_BUDGET_BYTES) / (512 * 1024)) }, (_, i) =>
    big(i),
  );
  const removedSmall = Array.from({ length: 3000 }, (_, i) => `small-${i}`);
  await applyInCalls(["a", "b", "c"].map((value) => entry("jobs", "append", value)));
  await applyInCalls([...removedBig, ...removedSmall, "b"].map((value) => entry("jobs", "remove", value)));
  await store.redis.config("RESETSTAT");

  const entries = await scanned();
  const removes = entries.filter(({ kind }) => kind === "remove").map(({ value }) => value);
  expect(removes).toHaveLength(removedBig.length + removedSmall.length + 1);
  expect(new Set(removes)).toEqual(new Set([...removedBig, ...removedSmall, "b"]));
  expect(entries.filter(({ kind }) => kind === "append").map(({ value }) => value)).toEqual(["a", "c"]);
  expect((await commandCalls(store.redis)).hgetall).toBeUndefined();
  // The bin's keys (bin-keys.lua), then at least three pages of tombstones.
  expect(await scriptCalls()).toBeGreaterThanOrEqual(4);
}, 60_000);

it("the tombstones of many lists share the pages, and every list's come whole", async () => {
  const lists = Array.from({ length: 40 }, (_, i) => `list-${i}`);
  // 40 lists of 8 removed values of 64 KiB: 20 MiB in all, no list near a read's budget alone.
  const removed = (list: string) =>
    Array.from({ length: 8 }, (_, j) => `${list}/${j}/${"v".repeat(64 * 1024)}`);
  await applyInCalls(lists.flatMap((list) => removed(list).map((value) => entry(list, "remove", value))));
  await store.redis.config("RESETSTAT");

  const entries = await scanned();
  for (const list of lists) {
    const values = entries.filter(({ key }) => key === list).map(({ value }) => value);
    expect(values.sort()).toEqual(removed(list).sort());
  }
  expect(entries).toHaveLength(40 * 8);
  expect((await commandCalls(store.redis)).hgetall).toBeUndefined();
  expect(await scriptCalls()).toBeGreaterThanOrEqual(1 + 5);
}, 60_000);
