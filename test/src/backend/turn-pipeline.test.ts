// The reads a backend issues in one event-loop turn reach Redis as one
// pipeline: Redis reads them off its socket in a few reads instead of one per
// command (its `total_reads_processed` counter), and each caller still gets its
// own reply, errors included. The GETs of a turn go as one MGET (cheaper for
// the backend than a pipeline of GETs), and a lone command as itself.
import { RedisEngine } from "@binring/backend";
import { type Entry, UnavailableError } from "@binring/core";
import { expect, it } from "vitest";
import { commandCalls, engineOnRedis } from "../support/index.js";

// Without the read cache, so that every read reaches Redis.
const store = engineOnRedis({ readCacheBytes: 0 });

async function readsProcessed(): Promise<number> {
  const stats = await store.redis.info("stats");
  return Number(/total_reads_processed:(\d+)/.exec(stats)?.[1]);
}

function setEntry(i: number): Entry {
  return {
    bin: `bin-${i}`,
    key: "k",
    kind: "set",
    value: `v${i}`,
    stamp: { clock: 1n, writer: "0123456789abcdef", seq: i },
  };
}

it("200 concurrent reads cost Redis a handful of socket reads, each answered with its own value", async () => {
  await store.engine.apply(Array.from({ length: 200 }, (_, i) => setEntry(i)));
  const before = await readsProcessed();
  const values = await Promise.all(
    Array.from({ length: 200 }, (_, i) => store.engine.getString(`bin-${i}`, "k")),
  );
  const reads = (await readsProcessed()) - before;
  expect(values.map((stored) => stored?.value)).toEqual(Array.from({ length: 200 }, (_, i) => `v${i}`));
  // One read per command without the pipeline (200); the INFO call itself is one more.
  expect(reads).toBeLessThan(10);
});

it("a failing command in the pipeline fails only its own caller", async () => {
  await store.redis.sadd("k:5:bin-x", "a");
  await store.redis.set("k:5:bin-y", "wrong type");
  const [keys, wrongType] = await Promise.allSettled([
    store.engine.keys("bin-x", {}),
    store.engine.keys("bin-y", {}),
  ]);
  expect(keys).toEqual({ status: "fulfilled", value: ["a"] });
  expect(wrongType.status).toBe("rejected");
  expect(String((wrongType as PromiseRejectedResult).reason)).toMatch(/WRONGTYPE/);
  expect((wrongType as PromiseRejectedResult).reason).not.toBeInstanceOf(UnavailableError);
});

it("a turn's gets reach Redis as one MGET beside its other commands; a lone get as a GET", async () => {
  await store.engine.apply(Array.from({ length: 20 }, (_, i) => setEntry(1000 + i)));
  await store.redis.config("RESETSTAT");
  // Every second bin was never written: its get answers null from within the MGET.
  const [values, keys] = await Promise.all([
    Promise.all(Array.from({ length: 40 }, (_, i) => store.engine.getString(`bin-${1000 + i / 2}`, "k"))),
    store.engine.keys("bin-1000", {}),
  ]);
  expect(values.map((stored) => stored?.value ?? null)).toEqual(
    Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? `v${1000 + i / 2}` : null)),
  );
  expect(keys).toEqual(["k"]);
  expect(await store.engine.getString("bin-1000", "k")).toMatchObject({ value: "v1000" });
  const calls = await commandCalls(store.redis);
  expect(calls).toMatchObject({ mget: 1, get: 1, sscan: 1 });
});

it("MGET keeps the key prefix of every key", async () => {
  const prefixed = new RedisEngine({ url: store.server.url, keyPrefix: "tenant:", readCacheBytes: 0 });
  await prefixed.waitUntilReady();
  await prefixed.apply([0, 1, 2].map((i) => ({ ...setEntry(2000 + i), value: `prefixed${i}` })));
  const values = await Promise.all([0, 1, 2].map((i) => prefixed.getString(`bin-${2000 + i}`, "k")));
  expect(values.map((stored) => stored?.value)).toEqual(["prefixed0", "prefixed1", "prefixed2"]);
  expect(await store.engine.getString("bin-2000", "k")).toBeNull();
  await prefixed.close();
});
