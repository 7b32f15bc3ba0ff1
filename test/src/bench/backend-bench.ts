// `npm run bench -- backend`: get and set through one backend process over
// gRPC, beside raw ioredis GET/SET against the same redis-server.
import { StorageClient } from "@binring/client";
import { Redis } from "ioredis";
import { startBackendProcess } from "../support/binring-process.js";
import { RedisServer } from "../support/redis-server.js";
import { COMPARISON_HEADER, compareAt, table } from "./measure.js";
import type { BenchResult } from "./result.js";
import { type BenchSettings, progress } from "./settings.js";

export async function backendBench(settings: BenchSettings): Promise<BenchResult> {
  const redis = await RedisServer.start();
  const backend = await startBackendProcess({ redisUrl: redis.url, keyPrefix: "bench:" });
  const client = new StorageClient(backend.address);
  const raw = new Redis(redis.url, { enableAutoPipelining: true });
  const value = "v".repeat(32);
  const keys = 10_000;
  const rows: (string | number)[][] = [];
  try {
    for (let i = 0; i < keys; i += 500) {
      await Promise.all(Array.from({ length: 500 }, (_, j) => client.set(`key${i + j}`, value)));
      await raw.mset(...Array.from({ length: 500 }, (_, j) => [`raw${i + j}`, value]).flat());
    }
    for (const concurrency of [1, 64]) {
      const operations = {
        "backend set": (i: number) => client.set(`key${i % keys}`, value),
        "raw SET": (i: number) => raw.set(`raw${i % keys}`, value),
        "backend get": (i: number) => client.get(`key${i % keys}`),
        "raw GET": (i: number) => raw.get(`raw${i % keys}`),
      };
      const pairs = [
        ["backend set", "raw SET"],
        ["backend get", "raw GET"],
      ] as const;
      rows.push(
        ...(await compareAt(concurrency, settings, operations, pairs, (name) =>
          progress(`backend: ${name} at concurrency ${concurrency}`),
        )),
      );
    }
  } finally {
    raw.disconnect();
    await client.close();
    await backend.child.kill("SIGTERM");
    await redis.destroy();
  }
  return { markdown: `## One backend over gRPC vs raw ioredis\n\n${table(COMPARISON_HEADER, rows)}\n` };
}
