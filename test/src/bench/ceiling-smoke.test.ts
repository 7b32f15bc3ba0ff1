// The ceiling benchmark's relay (relay-node.ts) does what its table says: a
// write is answered once it is on the Redis of the node its key hashes to and
// of the next two nodes (in the script mode too, stored as binring's apply
// script stores it), and on no other. And the benchmark runs end to end with
// `--quick`: every system in both cells, binring on the in-memory store among
// them, and each one's CPU per set. The full benchmark is
// `npm run bench -- ceiling`.
import { Redis } from "ioredis";
import { afterAll, expect, test } from "vitest";
import { Relay } from "./ceiling-bench.js";
import { QUICK_TEST_TIMEOUT_MS, runQuick } from "./quick-run.js";
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

test("npm run bench -- ceiling --quick measures every system, binring with no Redis too, and their CPU per set", {
  timeout: QUICK_TEST_TIMEOUT_MS,
}, async () => {
  const run = await runQuick(["ceiling"]);
  expect(run.code, run.stderr).toBe(0);
  const text = run.read("ceiling.md");
  expect(text).not.toMatch(/NaN|undefined|Infinity/);
  const systems = [
    "relay, SET per replica",
    "relay, binring's apply script per replica",
    "binring (6 backends, 3 keepers)",
    "binring (6 backends, 3 keepers, in-memory store, no Redis)",
    "redis master + 2 replicas, SET + WAIT 2",
  ];
  const n = "[\\d,]+";
  for (const system of systems) {
    const name = system.replace(/[()+]/g, "\\$&");
    for (const concurrency of [1, 64])
      expect(text, `${system} at c=${concurrency}`).toMatch(
        new RegExp(`\\| ${concurrency} \\| ${name} \\| ${n} \\|`),
      );
    expect(text, `${system}'s CPU per set`).toMatch(new RegExp(`\\| set \\| ${name} \\| ${n} \\|`));
  }
  // With no redis-server, no Redis CPU.
  expect(text).toMatch(new RegExp(`\\| set \\| binring \\([^|]*no Redis\\) \\| ${n} \\| ${n} \\| 0 \\|`));
});
