// A cluster of real processes for tests: N redis-servers, each with one
// `binring backend` process in front of it. Backends can be killed, paused and
// restarted (on their old Redis, or on an empty one) by index.
import { type BackendProcess, startBackendProcess } from "./binring-process.js";
import { RedisServer } from "./redis-server.js";

export interface ClusterMember {
  redis: RedisServer;
  backend: BackendProcess | undefined;
  address: string;
}

export interface LocalClusterOptions {
  backends: number;
  /** Start backends ready (a fresh cluster without keepers). @default true */
  ready?: boolean;
}

export class LocalCluster {
  private constructor(readonly members: ClusterMember[]) {}

  static async start(options: LocalClusterOptions): Promise<LocalCluster> {
    const members = await Promise.all(
      Array.from({ length: options.backends }, async () => {
        const redis = await RedisServer.start({ appendOnly: true });
        const backend = await startBackendProcess({ redisUrl: redis.url, ready: options.ready ?? true });
        return { redis, backend, address: backend.address };
      }),
    );
    return new LocalCluster(members);
  }

  get addresses(): string[] {
    return this.members.map((member) => member.address);
  }

  member(address: string): ClusterMember {
    const member = this.members.find((m) => m.address === address);
    if (!member) throw new Error(`${address} is not in this cluster`);
    return member;
  }

  /** SIGKILLs the backend process, and its redis-server too when `withRedis`. */
  async kill(address: string, options: { withRedis?: boolean } = {}): Promise<void> {
    const member = this.member(address);
    await member.backend?.child.kill("SIGKILL");
    member.backend = undefined;
    if (options.withRedis) await member.redis.kill("SIGKILL");
  }

  /**
   * Starts the backend again on the same address. `redis: "old"` restarts its
   * Redis from its append-only file (stale data); "empty" starts a new empty one.
   */
  async restart(address: string, options: { redis?: "old" | "empty"; ready?: boolean } = {}): Promise<void> {
    const member = this.member(address);
    if (member.backend) await this.kill(address);
    if (options.redis === "empty") {
      await member.redis.kill("SIGKILL");
      member.redis = await RedisServer.start({ appendOnly: true });
    } else if (options.redis === "old" && !member.redis.running) {
      await member.redis.restart();
    }
    member.backend = await startBackendProcess({
      redisUrl: member.redis.url,
      listen: address,
      ready: options.ready,
    });
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.members.map(async (member) => {
        await member.backend?.child.kill("SIGKILL");
        await member.redis.destroy();
      }),
    );
  }
}
