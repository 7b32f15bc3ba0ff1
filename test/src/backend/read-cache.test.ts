// The Redis engine answers string reads from memory (string-cache.ts) and
// stays exact: a cached read costs Redis nothing, reads racing writes never
// go back to an older entry, and a Drop or a swept tombstone is never answered
// from memory (a restarted Redis neither: store-reset.test.ts).
import { RedisEngine } from "@binring/backend";
import { type Entry, RING_SIZE, ringPoint } from "@binring/core";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { commandCalls, RedisServer } from "../support/index.js";
import { seededRandom } from "../support/seeded-random.js";

const WRITER = "0123456789abcdef";

let server: RedisServer;
let observer: Redis;
const engines: RedisEngine[] = [];
let prefixes = 0;

/** An engine with a key prefix of its own; `prefix` is what its Redis keys start with. */
async function openEngine(readCacheBytes?: number): Promise<RedisEngine & { prefix: string }> {
  const prefix = `c${prefixes++}:`;
  const engine = new RedisEngine({ url: server.url, keyPrefix: prefix, readCacheBytes });
  engines.push(engine);
  await engine.waitUntilReady();
  return Object.assign(engine, { prefix });
}

beforeAll(async () => {
  server = await RedisServer.start();
  observer = new Redis(server.url);
});
afterAll(async () => {
  observer.disconnect();
  await Promise.all(engines.map((engine) => engine.close()));
  await server.destroy();
});

function set(bin: string, key: string, value: string, clock: number): Entry {
  return { bin, key, kind: "set", value, stamp: { clock: BigInt(clock), writer: WRITER, seq: 0 } };
}

/** GET and MGET calls Redis has served so far. */
async function redisReads(): Promise<number> {
  const calls = await commandCalls(observer);
  return (calls.get ?? 0) + (calls.mget ?? 0);
}

it("answers a string read from memory once it has seen the key, at no Redis call", async () => {
  const engine = await openEngine();
  await engine.apply([set("bin", "written", "w", 1)]);
  expect((await engine.getString("bin", "unwritten"))?.value).toBeUndefined();
  const before = await redisReads();
  for (let i = 0; i < 50; i++) {
    expect((await engine.getString("bin", "written"))?.value).toBe("w");
    expect(await engine.getString("bin", "unwritten")).toBeNull();
  }
  expect(await redisReads()).toBe(before);
});

/**
 * Writers and readers race on a few keys; every read must see at least the
 * newest entry applied before it started. `valueFor` sizes the values against
 * the engine's cache, so reads keep missing and racing the writes.
 */
async function raceReadsAndWrites(
  readCacheBytes: number,
  keyCount: number,
  valueFor: (stamp: number) => string,
) {
  const engine = await openEngine(readCacheBytes);
  const random = seededRandom(7);
  const keys = Array.from({ length: keyCount }, (_, i) => `k${i}`);
  /** The largest clock applied so far per key, as the writers' resolved promises tell. */
  const applied = new Map<string, number>();
  const stale: string[] = [];
  let clock = 0;
  const writer = async () => {
    for (let i = 0; i < 300; i++) {
      const key = keys[Math.floor(random() * keys.length)]!;
      // Now and then an entry older than the key's newest one, as a repair copy or a retry brings.
      const stamp = random() < 0.2 ? Math.max(1, clock - 5) : ++clock;
      await engine.apply([set("race", key, valueFor(stamp), stamp)]);
      applied.set(key, Math.max(applied.get(key) ?? 0, stamp));
    }
  };
  const reader = async () => {
    for (let i = 0; i < 600; i++) {
      const key = keys[Math.floor(random() * keys.length)]!;
      const floor = applied.get(key) ?? 0;
      const stored = await engine.getString("race", key);
      const seen = stored ? Number(stored.stamp.clock) : 0;
      if (seen < floor) stale.push(`${key}: read clock ${seen} after ${floor} was applied`);
    }
  };
  await Promise.all([writer(), writer(), reader(), reader(), reader()]);
  expect(stale).toEqual([]);
  // Every key's cached answer is what Redis holds (after its 40-byte stamp).
  for (const key of keys) {
    const inRedis = await observer.get(`${engine.prefix}s:4:race${key}`);
    expect((await engine.getString("race", key))?.value ?? null).toBe(inRedis?.slice(40) ?? null);
  }
}

it("never answers an entry older than one already applied, with reads and writes racing", async () => {
  // A cache that holds a few of the keys.
  await raceReadsAndWrites(4_000, 40, (stamp) => `v${stamp}`);
});

it("never answers an older entry when a newer one was evicted or too large to keep", async () => {
  // Every third value is larger than the whole cache; the others fill it, evicting each other.
  await raceReadsAndWrites(
    2_000,
    4,
    (stamp) => (stamp % 3 === 0 ? "x".repeat(3_000) : "y".repeat(400)) + stamp,
  );
});

it("forgets what a Drop deleted", async () => {
  const engine = await openEngine();
  await engine.apply([set("dropped", "k", "v", 1)]);
  expect((await engine.getString("dropped", "k"))?.value).toBe("v");
  const point = ringPoint("dropped");
  await engine.drop([{ start: point, end: (point + 1) % RING_SIZE }]);
  expect(await engine.getString("dropped", "k")).toBeNull();
});

it("forgets a tombstone the sweep dropped, and only it", async () => {
  const engine = await openEngine();
  await engine.apply([set("swept", "kept", "v", 1), set("swept", "deleted", "", 2)]);
  expect((await engine.getString("swept", "kept"))?.value).toBe("v");
  expect((await engine.getString("swept", "deleted"))?.value).toBe("");
  expect(await engine.sweepTombstones(0, 1000)).toEqual({ examined: 1, dropped: 1 });
  // Past the TTL an older entry takes effect (ARCHITECTURE.md, "Tombstones"); the cache must agree.
  await engine.apply([set("swept", "deleted", "older", 1)]);
  expect((await engine.getString("swept", "deleted"))?.value).toBe("older");
  const before = await redisReads();
  expect((await engine.getString("swept", "kept"))?.value).toBe("v");
  expect(await redisReads()).toBe(before);
});
