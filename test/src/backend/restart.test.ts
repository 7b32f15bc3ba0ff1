// A backend killed with SIGKILL and restarted on the same Redis keeps its data,
// its clock never repeats a value, and a client created before the crash works
// after it without being recreated.
import { StorageClient } from "@binring/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BackendProcess, RedisServer, startBackendProcess, waitFor } from "../support/index.js";

let redis: RedisServer;
let backend: BackendProcess;

beforeAll(async () => {
  redis = await RedisServer.start({ appendOnly: true });
});
afterAll(async () => {
  await backend?.child.kill("SIGKILL");
  await redis.stop();
});

it("keeps data and a monotonic clock across SIGKILL and restart", async () => {
  backend = await startBackendProcess({ redisUrl: redis.url });
  const address = backend.address;
  const client = new StorageClient(address);
  await client.set("name", "alice");
  await client.set("gone", "x");
  await client.set("gone", "");
  for (const value of ["a", "b", "a", "c"]) await client.listAppend("list", value);
  expect(await client.listRemove("list", "a")).toBe(2);
  const before: bigint[] = [];
  for (let i = 0; i < 50; i++) before.push(await client.clock());
  const highest = before[before.length - 1]!;

  await backend.child.kill("SIGKILL");
  await expect(client.get("name")).rejects.toThrow(/unavailable/i);
  backend = await startBackendProcess({ redisUrl: redis.url, listen: address });

  // The same client object reconnects by itself.
  const name = await waitFor("the old client to reach the restarted backend", () => client.get("name"));
  expect(name).toBe("alice");
  expect(await client.get("gone")).toBeNull();
  expect(await client.keys()).toEqual(["name"]);
  expect(await client.listGet("list")).toEqual(["b", "c"]);
  const after = await client.clock();
  expect(after > highest).toBe(true);
  await client.close();
});
