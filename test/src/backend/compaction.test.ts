// Overwrites and churn do not grow Redis without bound (HAZARDS.md 10): a
// string key is one Redis string whatever its history, a churning list keeps
// its live elements plus one tombstone per removed value, and tombstones older
// than the tombstone TTL are swept, so deleting ever-new keys and removing
// ever-new list values leaves nothing behind. What is kept per write for its
// retries (rr:, ra:, w:) expires within two minutes.
import { BackendNode, LocalStorage, RedisEngine, startBackend } from "@binring/backend";
import { StorageClient } from "@binring/client";
import { DEFAULT_LIMITS } from "@binring/core";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RedisServer, waitFor } from "../support/index.js";

let server: RedisServer;
let engine: RedisEngine;
let redis: Redis;
let store: LocalStorage;

beforeAll(async () => {
  server = await RedisServer.start();
  engine = new RedisEngine({ url: server.url });
  await engine.waitUntilReady();
  store = new LocalStorage(new BackendNode({ engine, limits: DEFAULT_LIMITS }));
  redis = new Redis(server.url);
});
afterAll(async () => {
  redis.disconnect();
  await engine.close();
  await server.stop();
});

async function inWaves(total: number, wave: number, run: (i: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < total; start += wave) {
    await Promise.all(Array.from({ length: Math.min(wave, total - start) }, (_, j) => run(start + j)));
  }
}

it("100k overwrites of one key leave one small Redis string", async () => {
  await inWaves(100_000, 2000, (i) => store.set("hot", `value-${i}`));
  expect(await store.get("hot")).toMatch(/^value-\d+$/);
  // "0:" is the bin tag of bin "" (byte length 0).
  const bytes = Number(await redis.call("MEMORY", "USAGE", "s:0:hot"));
  expect(bytes).toBeLessThan(200);
  // clock, bins, k:, ka:, n:keys and the key itself: nothing per overwrite that lasts.
  expect(await lastingKeys("")).toEqual(["bins", "clock", "k:0:", "ka:0:", "n:keys", "s:0:hot"]);
  await expectAllToExpire("w:*", 100_000);
}, 120_000);

it("a list churned 20k times keeps only its live elements and one tombstone per value", async () => {
  for (let i = 0; i < 10_000; i++) {
    await store.listAppend("churn", "x");
    await store.listAppend("churn", "keep");
    expect(await store.listRemove("churn", "x")).toBe(1);
    expect(await store.listRemove("churn", "keep")).toBe(1);
  }
  await store.listAppend("churn", "last");
  expect(await store.listGet("churn")).toEqual(["last"]);
  expect(await redis.zcard("l:0:churn")).toBe(1);
  expect(await redis.hlen("lt:0:churn")).toBe(2);
}, 120_000);

/** Redis keys that are not kept for a write's retries (rr:, ra:, w:; they expire in 120 s). */
async function lastingKeys(prefix: string): Promise<string[]> {
  const keys = await redis.keys(`${prefix}*`);
  return keys.filter((key) => !/^(\w+:)?(rr|ra|w):/.test(key)).sort();
}

/** Every key matching the pattern (there are `count`) expires within the 120 s a write's retries last. */
async function expectAllToExpire(pattern: string, count: number): Promise<void> {
  const keys = await redis.keys(pattern);
  expect(keys).toHaveLength(count);
  const ttls = await Promise.all(keys.slice(0, 1000).map((key) => redis.ttl(key)));
  for (const ttl of ttls) expect(ttl > 0 && ttl <= 120).toBe(true);
}

it("ever-new deleted keys and removed list values leave nothing behind once swept", async () => {
  const prefix = "fresh:";
  const fresh = new RedisEngine({ url: server.url, keyPrefix: prefix });
  await fresh.waitUntilReady();
  const churn = new LocalStorage(new BackendNode({ engine: fresh, limits: DEFAULT_LIMITS }));
  await inWaves(5000, 500, async (i) => {
    await churn.set(`session-${i}`, "token");
    await churn.set(`session-${i}`, "");
    await churn.listAppend("queue", `job-${i}`);
    expect(await churn.listRemove("queue", `job-${i}`)).toBe(1);
  });
  await churn.set("kept", "v");
  // Before the sweep: one tombstone per deleted key and per removed value.
  expect(await redis.hlen(`${prefix}lt:0:queue`)).toBe(5000);
  expect(await redis.zcard(`${prefix}gc`)).toBe(10_000);
  let dropped = 0;
  for (;;) {
    const sweep = await fresh.sweepTombstones(0, 1000);
    dropped += sweep.dropped;
    if (sweep.examined < 1000) break;
  }
  expect(dropped).toBe(10_000);
  expect(await churn.get("kept")).toBe("v");
  expect(await churn.keys()).toEqual(["kept"]);
  expect(await churn.listGet("queue")).toEqual([]);
  expect(await lastingKeys(prefix)).toEqual(
    ["bins", "clock", "k:0:", "ka:0:", "n:keys", "n:lists", "s:0:kept"].map((key) => prefix + key),
  );
  await fresh.close();
}, 120_000);

it("a backend sweeps tombstones older than its --tombstone-ttl by itself", async () => {
  const own = await RedisServer.start();
  const backend = await startBackend({
    listen: "127.0.0.1:0",
    store: { engine: "redis", url: own.url },
    ready: true,
    tombstoneTtlMs: 300,
  });
  const client = new StorageClient(backend.address);
  const ownRedis = new Redis(own.url);
  try {
    for (let i = 0; i < 20; i++) {
      await client.set(`k${i}`, "v");
      await client.set(`k${i}`, "");
    }
    expect(await ownRedis.zcard("gc")).toBe(20);
    await waitFor("the backend to sweep its tombstones", async () => (await ownRedis.zcard("gc")) === 0, {
      timeoutMs: 5000,
    });
    expect(await ownRedis.exists("s:0:k0", "s:0:k19")).toBe(0);
    expect(await client.get("k0")).toBeNull();
  } finally {
    ownRedis.disconnect();
    await client.close();
    await backend.close();
    await own.stop();
  }
});
