// The ceiling benchmark's relay (relay-node.ts) does what its table says: a
// write is answered once it is on the Redis of the node its key hashes to and
// of the next two nodes (in the script mode too, stored as binring's apply
// script stores it), and on no other. The full benchmark is
// `npm run bench -- ceiling`.
import { Redis } from "ioredis";
import { afterAll, expect, test } from "vitest";
import { Relay } from "./ceiling-bench.js";
import { hashOf, type RelayMode, relayTarget } from "./relay-lines.js";

const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

test.each<RelayMode>(["set", "script"])(
  "the relay in %s mode answers a write once three nodes' Redis servers hold it",
  {
    timeout: 30_000,
  },
  async (mode) => {
    const relay = await Relay.start();
    stops.push(() => relay.stop());
    const client = relayTarget(relay.ports, mode);
    stops.push(() => client.close());
    const keys = Array.from({ length: 12 }, (_, i) => `bin${i}`);
    await Promise.all(keys.map((key) => client.set(key, "v")));
    const servers = relay.redisUrls.map((url) => new Redis(url));
    stops.push(async () => {
      for (const redis of servers) redis.disconnect();
    });
    for (const key of keys) {
      const stored = mode === "set" ? key : `s:4:bin0${key}`;
      const holders = (await Promise.all(servers.map((redis) => redis.exists(stored))))
        .map((held, node) => (held ? node : -1))
        .filter((node) => node >= 0);
      const coordinator = hashOf(key) % 6;
      expect(holders, key).toEqual([0, 1, 2].map((step) => (coordinator + step) % 6).sort((a, b) => a - b));
    }
  },
);
