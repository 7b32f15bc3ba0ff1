// The Storage contract and entry idempotency on both store engines, in-process.
import { BackendNode, LocalStorage, MemoryEngine, RedisEngine, type StoreEngine } from "@binring/backend";
import { DEFAULT_LIMITS } from "@binring/core";
import { afterAll, beforeAll, describe } from "vitest";
import { RedisServer } from "../support/index.js";
import { itRemembersWritesForClaims } from "./engine-claims.js";
import { itDropsBinsInRanges } from "./engine-drop.js";
import { itOrdersEntriesWithOneStamp } from "./engine-equal-stamps.js";
import {
  itAppliesEntriesIdempotently,
  itTellsCountedAppendsFromSupersededOnes,
  itTellsWhoDecidedARemovesCount,
} from "./engine-idempotency.js";
import { itLimitsListSizes } from "./engine-list-limit.js";
import { itScansEveryEntryOnce } from "./engine-scan.js";
import { itCountsKeysAndLists } from "./engine-stats.js";
import { itSweepsOldTombstones } from "./engine-tombstones.js";
import { describeStorageConformance } from "./storage-conformance.js";

function fixtureOn(engine: StoreEngine) {
  const node = new BackendNode({ engine, limits: DEFAULT_LIMITS });
  return { open: () => new LocalStorage(node) };
}

describeStorageConformance("memory engine", async () => fixtureOn(new MemoryEngine()));

describe("redis engine", () => {
  let redis: RedisServer;
  const engines: RedisEngine[] = [];
  let prefixes = 0;
  // One redis-server for the file; each test gets its own key prefix, so tests never see each other's data.
  const openEngine = async () => {
    const engine = new RedisEngine({ url: redis.url, keyPrefix: `t${prefixes++}:` });
    engines.push(engine);
    await engine.waitUntilReady();
    return engine;
  };
  beforeAll(async () => {
    redis = await RedisServer.start();
  });
  afterAll(async () => {
    await Promise.all(engines.map((engine) => engine.close()));
    await redis.stop();
  });

  describeStorageConformance("redis engine", async () => fixtureOn(await openEngine()));
  describe("idempotency", () => itAppliesEntriesIdempotently(openEngine));
  describe("removes", () => {
    itTellsCountedAppendsFromSupersededOnes(openEngine);
    itTellsWhoDecidedARemovesCount(openEngine);
  });
  describe("tombstones", () => itSweepsOldTombstones(openEngine));
  describe("drop", () => itDropsBinsInRanges(openEngine));
  describe("equal stamps", () => itOrdersEntriesWithOneStamp(openEngine));
  describe("list size limit", () => itLimitsListSizes(openEngine));
  describe("claims", () => itRemembersWritesForClaims(openEngine));
  describe("scan", () => itScansEveryEntryOnce(openEngine));
  describe("stats", () => itCountsKeysAndLists(openEngine));
});

describe("memory engine idempotency", () => itAppliesEntriesIdempotently(async () => new MemoryEngine()));
describe("memory engine removes", () => {
  itTellsCountedAppendsFromSupersededOnes(async () => new MemoryEngine());
  itTellsWhoDecidedARemovesCount(async () => new MemoryEngine());
});
describe("memory engine tombstones", () => itSweepsOldTombstones(async () => new MemoryEngine()));
describe("memory engine drop", () => itDropsBinsInRanges(async () => new MemoryEngine()));
describe("memory engine equal stamps", () => itOrdersEntriesWithOneStamp(async () => new MemoryEngine()));
describe("memory engine list size limit", () => itLimitsListSizes(async () => new MemoryEngine()));
describe("memory engine claims", () => itRemembersWritesForClaims(async () => new MemoryEngine()));
describe("memory engine scan", () => itScansEveryEntryOnce(async () => new MemoryEngine()));
describe("memory engine stats", () => itCountsKeysAndLists(async () => new MemoryEngine()));
