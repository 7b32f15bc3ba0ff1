// A RedisEngine on a redis-server of the test file's own, and a plain Redis
// connection beside it for looking at (or tampering with) what the engine
// wrote: the setup of every test of the Redis engine against a real Redis.
// Call it at the top of a test file; its hooks start both before the file's
// tests and stop them after.
import { RedisEngine, type RedisEngineOptions } from "@binring/backend";
import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import { RedisServer, type RedisServerOptions } from "./redis-server.js";

export interface EngineOnRedis {
  readonly server: RedisServer;
  readonly engine: RedisEngine;
  /** A plain connection to the same Redis. */
  readonly redis: Redis;
}

export function engineOnRedis(
  engineOptions: Omit<RedisEngineOptions, "url"> = {},
  serverOptions: RedisServerOptions = {},
): EngineOnRedis {
  let started: EngineOnRedis | undefined;
  beforeAll(async () => {
    const server = await RedisServer.start(serverOptions);
    const engine = new RedisEngine({ ...engineOptions, url: server.url });
    await engine.waitUntilReady();
    started = { server, engine, redis: new Redis(server.url) };
  });
  afterAll(async () => {
    if (!started) return;
    started.redis.disconnect();
    await started.engine.close();
    await started.server.stop();
  });
  const get = (): EngineOnRedis => {
    if (!started) throw new Error("engineOnRedis: used outside a test (its beforeAll has not run)");
    return started;
  };
  return {
    get server() {
      return get().server;
    },
    get engine() {
      return get().engine;
    },
    get redis() {
      return get().redis;
    },
  };
}
