// A keys or listKeys call reads its bin's key set by SSCAN pages
// (redis-key-set.ts), never the whole set in one Redis command: the result is
// whole, sorted and filtered as before, and a reply that would pass the
// largest one is refused as soon as what matches passes it, before the rest
// of the set is read.
import { RedisEngine } from "@binring/backend";
import { type Entry, MAX_RESULT_BYTES, ReplyTooLargeError } from "@binring/core";
import { expect, it } from "vitest";
import { commandCalls, engineOnRedis } from "../support/index.js";

const store = engineOnRedis({ readCacheBytes: 0 });

let seq = 0;
function entry(bin: string, key: string, kind: Entry["kind"], value: string): Entry {
  seq++;
  return { bin, key, kind, value, stamp: { clock: BigInt(seq), writer: "0123456789abcdef", seq } };
}

async function applyInCalls(entries: Entry[], engine = store.engine): Promise<void> {
  for (let i = 0; i < entries.length; i += 500) await engine.apply(entries.slice(i, i + 500));
}

const name = (i: number) => `k${String(i).padStart(5, "0")}`;

it("a bin of 25,000 string keys and lists comes back whole, sorted and filtered, each key once, read in pages", async () => {
  const bin = "paged";
  const keys = Array.from({ length: 25_000 }, (_, i) => name(i));
  await applyInCalls(keys.map((key) => entry(bin, key, "set", "v")));
  // Deleted keys and list keys are not string keys; the lists are listKeys' own set.
  await applyInCalls(keys.filter((_, i) => i % 10 === 0).map((key) => entry(bin, key, "set", "")));
  await applyInCalls(
    keys.filter((_, i) => i % 7 === 0).map((key) => entry(bin, `list-${key}`, "append", "a")),
  );
  const live = keys.filter((_, i) => i % 10 !== 0);
  await store.redis.config("RESETSTAT");

  expect(await store.engine.keys(bin, {})).toEqual(live);
  expect(await store.engine.keys(bin, { prefix: "k1", suffix: "7" })).toEqual(
    live.filter((key) => key.startsWith("k1") && key.endsWith("7")),
  );
  expect(await store.engine.listKeys(bin, { prefix: "list-k2" })).toEqual(
    keys.filter((key, i) => i % 7 === 0 && key.startsWith("k2")).map((key) => `list-${key}`),
  );
  const calls = await commandCalls(store.redis);
  expect(calls.smembers).toBeUndefined();
  // Three reads of sets of 22,500 and 3,572 members by pages of about 1000.
  expect(calls.sscan).toBeGreaterThanOrEqual(2 * 20 + 3);
});

it("a keys reply that would pass the largest reply is refused before the rest of the set is read", async () => {
  const bin = "too-many";
  const long = (i: number) => `${name(i)}${"x".repeat(4000)}`;
  // About 48 MiB of names; the reply may hold 32 MiB.
  const count = Math.ceil((1.5 * MAX_RESULT_BYTES) / 4000);
  await applyInCalls(Array.from({ length: count }, (_, i) => entry(bin, long(i), "set", "v")));

  await store.redis.config("RESETSTAT");
  expect(await store.engine.keys(bin, { prefix: "none" })).toEqual([]);
  const wholeSet = (await commandCalls(store.redis)).sscan!;

  await store.redis.config("RESETSTAT");
  const refused = await store.engine.keys(bin, {}).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ReplyTooLargeError);
  expect(String(refused)).toMatch(
    new RegExp(
      `the keys reply passed the largest reply of ${MAX_RESULT_BYTES} bytes at \\d+ bytes \\(\\d+ items\\)`,
    ),
  );
  // Two thirds of the set pass the limit: the read stops well before its last page.
  expect((await commandCalls(store.redis)).sscan).toBeLessThan(wholeSet * 0.85);
  expect(await store.engine.keys(bin, { prefix: name(5) })).toEqual([long(5)]);
}, 60_000);

it("pages the key set under the engine's key prefix", async () => {
  const prefixed = new RedisEngine({ url: store.server.url, keyPrefix: "tenant:", readCacheBytes: 0 });
  await prefixed.waitUntilReady();
  try {
    await applyInCalls(
      Array.from({ length: 3000 }, (_, i) => entry("shared-name", name(i), "set", "v")),
      prefixed,
    );
    await store.engine.apply([entry("shared-name", "unprefixed", "set", "v")]);
    expect(await prefixed.keys("shared-name", {})).toEqual(Array.from({ length: 3000 }, (_, i) => name(i)));
    expect(await store.engine.keys("shared-name", {})).toEqual(["unprefixed"]);
  } finally {
    await prefixed.close();
  }
});
