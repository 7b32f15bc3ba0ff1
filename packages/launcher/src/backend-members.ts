// A backend of a local cluster before its process starts: the addresses it
// will bind, chosen now (a restart binds them again), and its redis-server,
// started with the cluster's persistence settings and password.
import { join } from "node:path";
import { freePort } from "./free-port.js";
import type { BackendMember, LocalClusterOptions } from "./local-cluster-options.js";
import { hasRedisServer, RedisProcess } from "./redis-process.js";

export interface MemberAddresses {
  address: string;
  http: string;
  redisPort: number;
}

/** Where backend `i` listens, serves HTTP, and keeps its Redis. */
export async function chooseAddresses(options: LocalClusterOptions, i: number): Promise<MemberAddresses> {
  const portBase = options.portBase ?? 0;
  const port = async (offset: number) => (portBase === 0 ? await freePort() : portBase + offset + i);
  const host = options.network?.address(`backend-${i}`) ?? "127.0.0.1";
  return {
    address: `${host}:${await port(0)}`,
    http: `${host}:${await port(800)}`,
    redisPort: await port(1000),
  };
}

/** Backend `i`, its Redis started under `dir` (with the Redis engine), its backend not yet. */
export async function newBackendMember(
  options: LocalClusterOptions,
  dir: string,
  redisPassword: string,
  i: number,
  { address, http, redisPort }: MemberAddresses,
): Promise<BackendMember> {
  const store = options.store ?? (hasRedisServer() ? "redis" : "memory");
  const redis =
    store === "redis"
      ? await RedisProcess.start(`redis-${i}`, redisPort, join(dir, `redis-${i}`), {
          appendOnly: options.appendfsync !== undefined || (options.appendOnly ?? true),
          appendfsync: options.appendfsync ?? "always",
          logFile: join(dir, "logs", `redis-${i}.log`),
          password: redisPassword,
          netns: options.network?.namespace(`backend-${i}`),
        })
      : undefined;
  return { index: i, name: `backend-${i}`, address, http, redis, backend: undefined };
}

/** One row per process: name, address, store or HTTP address, pid. */
export function describeProcesses(
  members: readonly BackendMember[],
  keepers: readonly { name: string; address: string; http: string; child?: { pid?: number } }[],
): string[][] {
  return [
    ...members.map((member) => [
      member.name,
      member.address,
      member.redis ? `redis 127.0.0.1:${member.redis.port}` : "memory",
      String(member.backend?.child.pid ?? "-"),
    ]),
    ...keepers.map((slot) => [slot.name, slot.address, `http ${slot.http}`, String(slot.child?.pid ?? "-")]),
  ];
}
