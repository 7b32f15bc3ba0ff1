// A backend reaches its own Redis over a Unix socket (`--redis unix:///PATH`,
// with the password in the query), as LocalCluster starts every backend: the
// data goes there, through the socket and not TCP, and survives a restart of
// the backend like over TCP. A malformed --redis is refused in one line.
import { StorageClient } from "@binring/client";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BackendProcess, RedisServer, runCli, startBackendProcess } from "../support/index.js";

let redis: RedisServer;
let backend: BackendProcess | undefined;

beforeAll(async () => {
  redis = await RedisServer.start({ appendOnly: true, password: "s3cret&?#" });
});
afterAll(async () => {
  await backend?.child.kill("SIGKILL");
  await redis.stop();
});

it("serves from a Redis reached over its Unix socket, password included", async () => {
  expect(redis.backendUrl).toMatch(/^unix:\/\/\/.*\/redis\.sock\?password=s3cret%26%3F%23$/);
  backend = await startBackendProcess({ redisUrl: redis.backendUrl, ready: true });
  const client = new StorageClient(backend.address);
  await client.set("name", "alice");
  expect(await client.get("name")).toBe("alice");

  const admin = new Redis(redis.url);
  const clients = (await admin.client("LIST")) as string;
  admin.disconnect();
  // The backend's connection is the socket's (addr=/path...:0); the admin's own is TCP.
  expect(clients).toMatch(/addr=\/[^ ]*redis\.sock/);
  await client.close();
});

it("refuses a --redis that is no redis:// or unix:/// URL, naming it", async () => {
  const bad = await runCli(["backend", "--redis", "unix:relative.sock"]);
  expect(bad.code).not.toBe(0);
  expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  expect(bad.stderr).toContain(
    '--redis must be a redis://HOST:PORT or unix:///PATH URL, got "unix:relative.sock"',
  );
});
