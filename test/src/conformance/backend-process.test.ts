// The Storage contract through StorageClient, over real gRPC, against a real
// `binring backend` process on a real redis-server.
import { StorageClient } from "@binring/client";
import { afterAll, afterEach, beforeAll, describe } from "vitest";
import { type BackendProcess, RedisServer, startBackendProcess } from "../support/index.js";
import { describeStorageConformance } from "./storage-conformance.js";

describe("backend process over gRPC", () => {
  let redis: RedisServer;
  let backend: BackendProcess | undefined;
  const clients: StorageClient[] = [];
  let prefixes = 0;
  beforeAll(async () => {
    redis = await RedisServer.start();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await backend?.child.kill("SIGTERM");
    backend = undefined;
  });
  afterAll(async () => {
    await redis.stop();
  });

  // A fresh process per test (on its own key prefix), so every test starts with an empty store and clock.
  describeStorageConformance("StorageClient → backend process → redis", async () => {
    const started = await startBackendProcess({ redisUrl: redis.url, keyPrefix: `p${prefixes++}:` });
    backend = started;
    return {
      open: () => {
        const client = new StorageClient(started.address);
        clients.push(client);
        return client;
      },
    };
  });
});
