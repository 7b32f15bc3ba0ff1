// Copies reach Redis behind client writes (copy-lane.ts): a client write to a
// backend that a keeper is filling waits for one small chunk of copies, not
// for every copy the keeper has sent. The copy still lands whole. Copies update
// the read cache only for keys it holds (string-cache.ts).
import { RedisEngine } from "@binring/backend";
import { type Entry, newWriterId } from "@binring/core";
import { expect, it } from "vitest";
import { engineOnRedis } from "../support/index.js";

const store = engineOnRedis({ readCacheBytes: 0 });

function setEntry(bin: string, i: number, writer: string): Entry {
  return { bin, key: `k${i}`, kind: "set", value: `v${i}`, stamp: { clock: 1n, writer, seq: i } };
}

it("a client write overtakes copies that wait, and every copy is applied", async () => {
  const writer = newWriterId();
  const done: string[] = [];
  // Four batches in flight, as a keeper's copier keeps them.
  const copies = Array.from({ length: 4 }, (_, batch) =>
    store.engine
      .applyCopies(Array.from({ length: 2000 }, (_, i) => setEntry(`copied-${batch}`, i, writer)))
      .then(() => done.push(`copy ${batch}`)),
  );
  const write = store.engine
    .apply([setEntry("client", 0, writer)], true, true)
    .then(() => done.push("write"));
  await Promise.all([...copies, write]);
  // Sent as they came, the copies' script calls would all be ahead of the write in Redis.
  expect(done.indexOf("write")).toBe(0);
  for (let batch = 0; batch < 4; batch++)
    expect(await store.engine.keys(`copied-${batch}`, {})).toHaveLength(2000);
});

it("copies refresh the keys the read cache holds and add none", async () => {
  const cached = new RedisEngine({ url: store.server.url, keyPrefix: "cached:" });
  try {
    await cached.waitUntilReady();
    const writer = newWriterId();
    const entry = (key: string, value: string, clock: bigint): Entry => ({
      bin: "b",
      key,
      kind: "set",
      value,
      stamp: { clock, writer, seq: 0 },
    });
    await cached.apply([entry("hot", "from a client", 1n)], true, true);
    await cached.applyCopies([entry("hot", "copied", 2n), entry("cold", "copied", 2n)]);
    // Taken from under the engine: a cached key still answers, one read from Redis no longer does.
    await store.redis.del("cached:s:1:bhot", "cached:s:1:bcold");
    expect((await cached.getString("b", "hot"))?.value).toBe("copied");
    expect(await cached.getString("b", "cold")).toBeNull();
  } finally {
    await cached.close();
  }
});
