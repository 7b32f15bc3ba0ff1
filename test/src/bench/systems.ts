// The systems a benchmark compares, described as plain data (so a load
// process can connect from a description) and the one operation interface the
// workloads drive: binring bins through the SDK, Redis Cluster through
// ioredis' Cluster client (optionally followed by WAIT on the key's master),
// one raw redis-server through ioredis, a master with replicas through ioredis
// with every write followed by WAIT for all of them, and etcd (etcd-target.ts).

import { BinClient } from "@binring/client";
import type { TlsFiles } from "@binring/core";
import { binLoadTarget, type LoadTarget } from "@binring/load";
import { Cluster, Redis } from "ioredis";
import { etcdTarget } from "./etcd-target.js";
import { type RelayMode, relayTarget } from "./relay-lines.js";

/** How long `WAIT` may wait for the replicas, in ms. */
export const WAIT_TIMEOUT_MS = 1000;

export type SystemSpec =
  | {
      kind: "binring";
      name: string;
      backends: string[];
      keepers: string[];
      callTimeoutMs?: number;
      /** Mutual TLS: the client's certificate files. @default plaintext */
      tls?: TlsFiles;
    }
  | {
      kind: "redis-cluster";
      name: string;
      seeds: { host: string; port: number }[];
      /** Follow every write with WAIT 1 WAIT_TIMEOUT_MS on the key's master. */
      wait: boolean;
      commandTimeoutMs?: number;
    }
  | { kind: "redis"; name: string; url: string }
  | {
      kind: "redis-replicas";
      name: string;
      /** The master, which takes every command. */
      url: string;
      /** Every write is followed by WAIT replicas WAIT_TIMEOUT_MS. */
      replicas: number;
    }
  | { kind: "etcd"; name: string; endpoints: string[] }
  /** The ceiling benchmark's relay (relay-node.ts): its nodes' ports; it only writes. */
  | { kind: "relay"; name: string; ports: number[]; mode: RelayMode };

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
        tls: spec.tls,
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
    case "redis-replicas": {
      const redis = new Redis(spec.url, { enableAutoPipelining: true });
      // SET (or RPUSH) and WAIT in one pipeline on the one connection, as the
      // Redis Cluster contender with WAIT 1 sends them to the key's master.
      const write = async (command: "set" | "rpush", key: string, value: string) => {
        const pipeline = redis.pipeline();
        if (command === "set") pipeline.set(`${key}:k`, value);
        else pipeline.rpush(`${key}:l`, value);
        const results = await pipeline.call("wait", spec.replicas, WAIT_TIMEOUT_MS).exec();
        for (const [error] of results ?? []) if (error) throw error;
        const acknowledged = results?.[1]?.[1];
        if (acknowledged !== spec.replicas)
          throw new NotReplicatedError(
            `WAIT ${spec.replicas} ${WAIT_TIMEOUT_MS}: ${String(acknowledged)} replicas`,
          );
        return results?.[0]?.[1];
      };
      return {
        set: (key, value) => write("set", key, value),
        get: (key) => redis.get(`${key}:k`),
        listAppend: (key, value) => write("rpush", key, value),
        close: async () => {
          redis.disconnect();
        },
      };
    }
    case "etcd":
      return etcdTarget(spec.endpoints);
    case "relay":
      return relayTarget(spec.ports, spec.mode);
  }
}
