// Overwrites and list churn do not grow Redis without bound: a string key is
// one Redis string whatever its history, and a churning list keeps its live
// elements plus one tombstone per removed value.
import { BackendNode, LocalStorage, RedisEngine } from "@binring/backend";
import { DEFAULT_LIMITS } from "@binring/core";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RedisServer } from "../support/index.js";

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
  // clock, bins, k:, ka:, n:keys and the key itself: nothing per overwrite.
  expect(await redis.dbsize()).toBeLessThanOrEqual(6);
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
