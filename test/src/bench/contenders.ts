// Starts the systems the benchmarks compare, on free ports, and tears them
// down: binring (6 backends, each with its own redis-server, and the keepers
// `binring dev` starts, production timing), Redis Cluster (3 masters + 3
// replicas) and one raw redis-server.
import { type KeeperStatus, keeperStatus } from "../support/keeper-status.js";
import { LocalCluster } from "../support/local-cluster.js";
import { RedisCluster } from "../support/redis-cluster.js";
import { RedisServer } from "../support/redis-server.js";
import { waitFor } from "../support/wait-for.js";
import type { SystemSpec } from "./systems.js";

export interface Binring {
  cluster: LocalCluster;
  /** HTTP address of keeper 0's /status. */
  statusHttp: string;
  /** HTTP addresses of every keeper's /status. */
  statusHttps: string[];
  spec: SystemSpec & { kind: "binring" };
}

/**
 * The cluster as every keeper that answers reports it: backend states from
 * the shared view, and the repairs of all of them (each keeper lists only the
 * repairs of its own slice).
 */
export async function clusterStatus(binring: Binring): Promise<KeeperStatus> {
  const statuses = (
    await Promise.all(binring.statusHttps.map((http) => keeperStatus(http).catch(() => undefined)))
  ).filter((status) => status !== undefined);
  const first = statuses[0];
  if (!first) throw new Error("no keeper answers /status");
  return {
    ...first,
    repairs: statuses.flatMap((status) => status.repairs),
    completedRepairs: statuses.flatMap((status) => status.completedRepairs),
  };
}

export interface BinringOptions {
  /** The client's per-call timeout. @default the SDK's */
  callTimeoutMs?: number;
  /** Each Redis keeps an append-only file synced this way, as `binring dev --appendfsync` runs it. @default none */
  appendfsync?: "always" | "everysec";
  /** Mutual TLS with the certificates `binring certs` wrote here. @default plaintext */
  tlsDir?: string;
  /** The backends' store: "memory" runs them on the in-memory engine, with no redis-server. @default "redis" */
  store?: "redis" | "memory";
}

/**
 * A binring cluster with keepers at their production timing (as `binring
 * dev` runs them), resolved once the keepers made every backend ready.
 * No append-only files, like the Redis Cluster and raw Redis it is compared
 * with, unless `appendfsync` is given.
 */
export async function startBinring(
  backends: number,
  keepers: number,
  options: BinringOptions = {},
): Promise<Binring> {
  const { callTimeoutMs, appendfsync, tlsDir, store = "redis" } = options;
  const cluster = await LocalCluster.start({
    backends,
    keepers,
    keeperArgs: [],
    appendOnly: false,
    appendfsync,
    tlsDir,
    store,
  });
  try {
    const statusHttps = await Promise.all(
      cluster.keeperProcesses.map(async (keeper) => (await keeper!.waitForLine(/"http":"([^"]+)"/))[1]!),
    );
    const statusHttp = statusHttps[0]!;
    await waitFor(
      "the keepers to make every backend ready",
      async () => (await keeperStatus(statusHttp)).backends.every((b) => b.state === "ready"),
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    const details = [
      `${backends} backends`,
      `${keepers} keeper${keepers === 1 ? "" : "s"}`,
      ...(store === "memory" ? ["in-memory store, no Redis"] : []),
      ...(appendfsync ? [`appendfsync ${appendfsync}`] : []),
      ...(tlsDir ? ["mutual TLS"] : []),
    ];
    return {
      cluster,
      statusHttp,
      statusHttps,
      spec: {
        kind: "binring",
        name: `binring (${details.join(", ")})`,
        backends: cluster.addresses,
        keepers: cluster.keepers,
        callTimeoutMs,
        tls: cluster.clientTls,
      },
    };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

export function redisClusterSpecs(cluster: RedisCluster): (SystemSpec & { kind: "redis-cluster" })[] {
  return [
    { kind: "redis-cluster", name: "Redis Cluster 3+3", seeds: cluster.seeds, wait: false },
    { kind: "redis-cluster", name: "Redis Cluster 3+3, WAIT 1", seeds: cluster.seeds, wait: true },
  ];
}

export function rawRedisSpec(redis: RedisServer): SystemSpec {
  return { kind: "redis", name: "raw redis-server", url: redis.url };
}

export { RedisCluster, RedisServer };
