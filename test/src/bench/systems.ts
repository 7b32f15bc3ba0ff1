// The systems a benchmark compares, described as plain data (so a load
// process can connect from a description) and the one operation interface the
// workloads drive: binring bins through the SDK, Redis Cluster through
// ioredis' Cluster client (optionally followed by WAIT on the key's master),
// and one raw redis-server through ioredis.

import { BinClient } from "@binring/client";
import { binLoadTarget, type LoadTarget } from "@binring/load";
import { Cluster, Redis } from "ioredis";

/** How long `WAIT 1` may wait for the replica, in ms. */
export const WAIT_TIMEOUT_MS = 1000;

export type SystemSpec =
  | { kind: "binring"; name: string; backends: string[]; keepers: string[]; callTimeoutMs?: number }
  | {
      kind: "redis-cluster";
      name: string;
      seeds: { host: string; port: number }[];
      /** Follow every write with WAIT 1 WAIT_TIMEOUT_MS on the key's master. */
      wait: boolean;
      commandTimeoutMs?: number;
    }
  | { kind: "redis"; name: string; url: string };

/** One key-value store as the workloads see it. Keys are "bin-like" names. */
export interface SystemClient extends LoadTarget {
  close(): Promise<void>;
}

/** Thrown when WAIT reports that no replica acknowledged the write in time. */
export class NotReplicatedError extends Error {}

export function connect(spec: SystemSpec): SystemClient {
  switch (spec.kind) {
    case "binring": {
      const client = new BinClient({
        backends: spec.backends,
        keepers: spec.keepers,
        callTimeoutMs: spec.callTimeoutMs,
      });
      return { ...binLoadTarget(client), close: () => client.close() };
    }
    case "redis-cluster": {
      const cluster = new Cluster(spec.seeds, {
        enableAutoPipelining: true,
        redisOptions: { commandTimeout: spec.commandTimeoutMs },
      });
      const write = async (command: "set" | "rpush", key: string, value: string) => {
        if (!spec.wait)
          return command === "set" ? cluster.set(`${key}:k`, value) : cluster.rpush(`${key}:l`, value);
        // A pipeline goes to the node of its keyed command, so WAIT runs on the key's master.
        const pipeline = cluster.pipeline();
        if (command === "set") pipeline.set(`${key}:k`, value);
        else pipeline.rpush(`${key}:l`, value);
        const results = await pipeline.call("wait", 1, WAIT_TIMEOUT_MS).exec();
        for (const [error] of results ?? []) if (error) throw error;
        const acknowledged = results?.[1]?.[1];
        if (acknowledged !== 1)
          throw new NotReplicatedError(`WAIT 1 ${WAIT_TIMEOUT_MS}: ${String(acknowledged)} replicas`);
        return results?.[0]?.[1];
      };
      return {
        set: (key, value) => write("set", key, value),
        get: (key) => cluster.get(`${key}:k`),
        listAppend: (key, value) => write("rpush", key, value),
        close: async () => {
          cluster.disconnect();
        },
      };
    }
    case "redis": {
      const redis = new Redis(spec.url, { enableAutoPipelining: true });
      return {
        set: (key, value) => redis.set(`${key}:k`, value),
        get: (key) => redis.get(`${key}:k`),
        listAppend: (key, value) => redis.rpush(`${key}:l`, value),
        close: async () => {
          redis.disconnect();
        },
      };
    }
  }
}
