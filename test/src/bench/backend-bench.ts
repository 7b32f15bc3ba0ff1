// `npm run bench -- backend`: get and set through one backend process over
// gRPC, beside raw ioredis GET/SET against the same redis-server; then where
// the backend's CPU goes: a fixed cost per Pipe message and a cost per
// operation in it, fitted from runs whose messages carry more and more
// operations (the client batches what concurrent callers issue in one turn),
// for the Pipe on gRPC and on a link (the same messages, framed on TCP).

import { StorageClient } from "@binring/client";
import { measure } from "@binring/load";
import { Redis } from "ioredis";
import { startBackendProcess } from "../support/binring-process.js";
import { RedisServer } from "../support/redis-server.js";
import { COMPARISON_HEADER, compareAt, fmt, table } from "./measure.js";
import { processCpuMicros } from "./process-cpu.js";
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
  let costs = "";
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
    const link = new StorageClient(backend.address, { link: true });
    try {
      costs = await messageCosts(settings, { gRPC: client, link }, backend.child.pid, redis.pid, keys, value);
    } finally {
      await link.close();
    }
  } finally {
    raw.disconnect();
    await client.close();
    await backend.child.kill("SIGTERM");
    await redis.destroy();
  }
  return {
    markdown: `## One backend over gRPC vs raw ioredis\n\n${table(COMPARISON_HEADER, rows)}\n\n${costs}`,
  };
}

/** What the backend and its Redis spent over one measured run, per message and per operation. */
interface CostPoint {
  concurrency: number;
  opsPerSecond: number;
  operationsPerMessage: number;
  backendMicrosPerMessage: number;
  backendMicrosPerOperation: number;
  redisMicrosPerOperation: number;
}

/**
 * CPU of the backend process and its redis-server (from /proc) over runs at
 * rising concurrency, divided by the operations and messages the client sent
 * in the same span (warm-up included on both sides). A least-squares line
 * through CPU per message against operations per message splits it into
 * what every message costs and what each operation in it adds.
 */
async function messageCosts(
  settings: BenchSettings,
  clients: Record<string, StorageClient>,
  backendPid: number,
  redisPid: number,
  keys: number,
  value: string,
): Promise<string> {
  const operations: [string, StorageClient, (i: number) => Promise<unknown>][] = Object.entries(
    clients,
  ).flatMap(([transport, client]): [string, StorageClient, (i: number) => Promise<unknown>][] => [
    [`get (${transport})`, client, (i) => client.get(`key${i % keys}`)],
    [`set (${transport})`, client, (i) => client.set(`key${i % keys}`, value)],
    [`clock, no Redis call (${transport})`, client, () => client.clock()],
  ]);
  const concurrencies = settings.quick ? [1, 16] : [1, 4, 16, 64];
  const rows: (string | number)[][] = [];
  const fits: (string | number)[][] = [];
  for (const [name, client, operation] of operations) {
    const points: CostPoint[] = [];
    for (const concurrency of concurrencies) {
      progress(`backend: CPU per message, ${name} at concurrency ${concurrency}`);
      const sentBefore = { ...client.channel.sent };
      const backendBefore = processCpuMicros(backendPid);
      const redisBefore = processCpuMicros(redisPid);
      const { opsPerSecond } = await measure(operation, { ...settings, concurrency });
      const backendMicros = processCpuMicros(backendPid) - backendBefore;
      const redisMicros = processCpuMicros(redisPid) - redisBefore;
      const sent = client.channel.sent.operations - sentBefore.operations;
      const messages = client.channel.sent.batches - sentBefore.batches;
      points.push({
        concurrency,
        opsPerSecond,
        operationsPerMessage: sent / messages,
        backendMicrosPerMessage: backendMicros / messages,
        backendMicrosPerOperation: backendMicros / sent,
        redisMicrosPerOperation: redisMicros / sent,
      });
    }
    for (const point of points) {
      rows.push([
        name,
        point.concurrency,
        fmt.ops(point.opsPerSecond),
        point.operationsPerMessage.toFixed(1),
        Math.round(point.backendMicrosPerMessage),
        Math.round(point.backendMicrosPerOperation),
        Math.round(point.redisMicrosPerOperation),
      ]);
    }
    const { intercept, slope } = leastSquares(
      points.map((point) => [point.operationsPerMessage, point.backendMicrosPerMessage]),
    );
    fits.push([name, Math.round(intercept), Math.round(slope)]);
  }
  return [
    "## Where one backend's CPU goes: per message and per operation",
    "",
    "CPU time of the backend process and of its redis-server (from `/proc/<pid>/stat`) over each run, divided by the operations and the Pipe messages the client sent in it, on gRPC and on a link (what backends forward writes on).",
    "",
    table(
      [
        "operation",
        "concurrency",
        "ops/s",
        "operations per message",
        "backend µs per message",
        "backend µs per operation",
        "Redis µs per operation",
      ],
      rows,
    ),
    "",
    "A straight line through backend CPU per message against operations per message: what a message costs whatever it carries (framing, the Redis round trip, wake-ups), and what each operation in it adds.",
    "",
    table(["operation", "backend µs per message", "backend µs per operation in it"], fits),
    "",
  ].join("\n");
}

/** The line y = intercept + slope · x closest to the points (ordinary least squares). */
function leastSquares(points: (readonly [x: number, y: number])[]): { intercept: number; slope: number } {
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  const sxx = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  const sxy = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const slope = sxx > 0 ? sxy / sxx : 0;
  return { intercept: meanY - slope * meanX, slope };
}
