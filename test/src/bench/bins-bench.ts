// `npm run bench -- bins`: replicated set/get/listAppend on 6 backends through
// the SDK, beside raw ioredis against one redis-server.
import { BinClient } from "@binring/client";
import { Redis } from "ioredis";
import { LocalCluster } from "../support/local-cluster.js";
import { RedisServer } from "../support/redis-server.js";
import { fmt, type Measurement, measure, table } from "./measure.js";
import { type BenchSettings, progress } from "./settings.js";

export async function binsBench(settings: BenchSettings): Promise<string> {
  // No append-only files, like the raw Redis it is compared with.
  const cluster = await LocalCluster.start({ backends: 6, appendOnly: false });
  const redis = await RedisServer.start();
  const client = new BinClient({ backends: cluster.addresses });
  const raw = new Redis(redis.url, { enableAutoPipelining: true });
  const value = "v".repeat(32);
  const bins = 1000;
  const rows: (string | number)[][] = [];
  try {
    for (let i = 0; i < bins; i += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, j) => client.bin(`bin${i + j}`).set("k", value)));
    }
    await raw.mset(...Array.from({ length: bins }, (_, i) => [`bin${i}:k`, value]).flat());
    for (const concurrency of [1, 64]) {
      const options = { concurrency, durationMs: settings.durationMs, warmupMs: settings.warmupMs };
      const results: Record<string, Measurement> = {};
      for (const [name, op] of [
        ["bin set", (i: number) => client.bin(`bin${i % bins}`).set("k", value)],
        ["raw SET", (i: number) => raw.set(`bin${i % bins}:k`, value)],
        ["bin get", (i: number) => client.bin(`bin${i % bins}`).get("k")],
        ["raw GET", (i: number) => raw.get(`bin${i % bins}:k`)],
        ["bin listAppend", (i: number) => client.bin(`bin${i % bins}`).listAppend("l", value)],
        ["raw RPUSH", (i: number) => raw.rpush(`bin${i % bins}:l`, value)],
      ] as const) {
        progress(`bins: ${name} at concurrency ${concurrency}`);
        results[name] = await measure(op, options);
      }
      for (const [name, baseline] of [
        ["bin set", "raw SET"],
        ["bin get", "raw GET"],
        ["bin listAppend", "raw RPUSH"],
      ] as const) {
        for (const label of [name, baseline]) {
          const m = results[label]!;
          rows.push([
            label,
            concurrency,
            fmt.ops(m.opsPerSecond),
            fmt.ms(m.p50Ms),
            fmt.ms(m.p99Ms),
            m.errors,
            label === name ? fmt.ratio(m.opsPerSecond, results[baseline]!.opsPerSecond) : "100%",
          ]);
        }
      }
    }
  } finally {
    raw.disconnect();
    await client.close();
    await cluster.stop();
    await redis.destroy();
  }
  const header = ["operation", "concurrency", "ops/s", "p50 ms", "p99 ms", "errors", "vs raw Redis"];
  return `## Replicated bins on 6 backends (3 copies per write) vs raw ioredis\n\n${table(header, rows)}\n`;
}
