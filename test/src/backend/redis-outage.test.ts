// While its Redis is down a backend answers UNAVAILABLE (and keeps running);
// when Redis returns it serves again by itself, without a restart. SIGTERM
// shuts it down gracefully and releases its port.
import { createServer } from "node:net";
import { StorageClient } from "@binring/client";
import { UnavailableError } from "@binring/core";
import { afterAll, expect, it } from "vitest";
import { type BackendProcess, RedisServer, startBackendProcess, waitFor } from "../support/index.js";

let redis: RedisServer;
let backend: BackendProcess | undefined;
afterAll(async () => {
  await backend?.child.kill("SIGKILL");
  await redis?.destroy();
});

it("answers UNAVAILABLE during a Redis outage and recovers by itself", async () => {
  redis = await RedisServer.start({ appendOnly: true });
  backend = await startBackendProcess({ redisUrl: redis.url });
  const client = new StorageClient(backend.address);
  await client.set("before", "outage");

  await redis.kill("SIGKILL");
  const error = await client.set("during", "outage").then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnavailableError);
  expect((error as Error).message).toMatch(/store unavailable/);
  expect(backend.child.running).toBe(true);

  await redis.restart();
  await waitFor("the backend to serve again", () => client.get("before"), { timeoutMs: 15_000 });
  expect(await client.get("before")).toBe("outage");
  await client.set("after", "outage");
  expect(await client.get("after")).toBe("outage");
  await client.close();
});

it("shuts down on SIGTERM and releases its port", async () => {
  const running = backend!;
  await running.child.kill("SIGTERM");
  expect((await running.child.waitExit()).code).toBe(0);
  const port = Number(running.address.split(":")[1]);
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
  });
  backend = undefined;
});
