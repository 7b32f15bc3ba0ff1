// A redis-server master with two replicas (REPLICAOF) for the peers
// benchmark: three copies of every key, as binring keeps, each redis-server
// on a free port with no persistence, like the other Redis contenders.
import { Redis } from "ioredis";
import { waitFor } from "../support/wait-for.js";
import { RedisServer } from "./contenders.js";

/** Replicas of the master; WAIT asks for all of them. */
export const REPLICAS = 2;

export class RedisReplicas {
  private constructor(
    readonly master: RedisServer,
    readonly replicas: RedisServer[],
  ) {}

  /** Starts the three servers and resolves once both replicas finished their first sync. */
  static async start(): Promise<RedisReplicas> {
    const servers = await Promise.all(Array.from({ length: 1 + REPLICAS }, () => RedisServer.start()));
    const group = new RedisReplicas(servers[0]!, servers.slice(1));
    try {
      const master = new Redis(group.master.url, { lazyConnect: true });
      // Start the replicas' full syncs at once instead of waiting 5 s for more of them.
      await master.config("SET", "repl-diskless-sync-delay", "0").finally(() => master.disconnect());
      await Promise.all(
        group.replicas.map(async (replica) => {
          const redis = new Redis(replica.url, { lazyConnect: true });
          try {
            await redis.call("replicaof", "127.0.0.1", String(group.master.port));
            await waitFor(
              `${replica.url} to finish its first sync from ${group.master.url}`,
              async () => /master_link_status:up/.test(await redis.info("replication")),
              { timeoutMs: 30_000, intervalMs: 50 },
            );
          } finally {
            redis.disconnect();
          }
        }),
      );
    } catch (error) {
      await group.destroy();
      throw error;
    }
    return group;
  }

  async destroy(): Promise<void> {
    await Promise.all([this.master, ...this.replicas].map((server) => server.destroy()));
  }
}
