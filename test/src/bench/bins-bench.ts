// `npm run bench -- bins`: replicated set/get/listAppend on 6 backends through
// the SDK, beside raw ioredis against one redis-server.
import { BinClient } from "@binring/client";
import { Redis } from "ioredis";
import { LocalCluster } from "../support/local-cluster.js";
import { RedisServer } from "../support/redis-server.js";
import { COMPARISON_HEADER, compareAt, table } from "./measure.js";
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
      const operations = {
        "bin set": (i: number) => client.bin(`bin${i % bins}`).set("k", value),
        "raw SET": (i: number) => raw.set(`bin${i % bins}:k`, value),
        "bin get": (i: number) => client.bin(`bin${i % bins}`).get("k"),
        "raw GET": (i: number) => raw.get(`bin${i % bins}:k`),
        "bin listAppend": (i: number) => client.bin(`bin${i % bins}`).listAppend("l", value),
        "raw RPUSH": (i: number) => raw.rpush(`bin${i % bins}:l`, value),
      };
      const pairs = [
        ["bin set", "raw SET"],
        ["bin get", "raw GET"],
        ["bin listAppend", "raw RPUSH"],
      ] as const;
      rows.push(
        ...(await compareAt(concurrency, settings, operations, pairs, (name) =>
          progress(`bins: ${name} at concurrency ${concurrency}`),
        )),
      );
    }
  } finally {
    raw.disconnect();
    await client.close();
    await cluster.stop();
    await redis.destroy();
  }
  return `## Replicated bins on 6 backends (3 copies per write) vs raw ioredis\n\n${table(COMPARISON_HEADER, rows)}\n`;
}
