// The durability knob: a Redis engine asked for `appendfsync` makes its Redis
// keep an append-only file synced that often, on every verified connection, so
// a Redis restarted with another configuration gets it again before any call
// goes through. A Redis that refuses CONFIG takes no call: the engine names
// the refusal instead of running less durable than asked.
import { RedisEngine } from "@binring/backend";
import { type Entry, UnavailableError } from "@binring/core";
import { Redis } from "ioredis";
import { afterAll, afterEach, expect, it } from "vitest";
import { RedisServer, waitFor } from "../support/index.js";

const servers: RedisServer[] = [];
const clients: Redis[] = [];
let engine: RedisEngine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await Promise.all(servers.map((server) => server.destroy()));
});

async function startRedis(): Promise<{ server: RedisServer; admin: Redis }> {
  // Started with appendonly no and appendfsync always (test/src/support/redis-server.ts).
  const server = await RedisServer.start({ appendOnly: false });
  servers.push(server);
  const admin = new Redis(server.url, { retryStrategy: () => 50 });
  admin.on("error", () => {});
  clients.push(admin);
  return { server, admin };
}

async function persistence(admin: Redis): Promise<{ appendonly: string; appendfsync: string }> {
  const [, appendonly] = (await admin.config("GET", "appendonly")) as string[];
  const [, appendfsync] = (await admin.config("GET", "appendfsync")) as string[];
  return { appendonly: appendonly!, appendfsync: appendfsync! };
}

const entry: Entry = {
  bin: "b",
  key: "k",
  kind: "set",
  value: "v",
  stamp: { clock: 1n, writer: "0123456789abcdef", seq: 1 },
};

it("sets appendonly and appendfsync on connect, and again after Redis restarts with its own configuration", async () => {
  const { server, admin } = await startRedis();
  expect(await persistence(admin)).toEqual({ appendonly: "no", appendfsync: "always" });
  engine = new RedisEngine({ url: server.url, appendfsync: "everysec" });
  await engine.waitUntilReady();
  expect(await persistence(admin)).toEqual({ appendonly: "yes", appendfsync: "everysec" });
  await engine.apply([entry]);

  await server.kill("SIGKILL");
  await server.restart();
  await waitFor("the admin connection to come back", () => admin.ping().then(() => true));
  await waitFor("the engine to serve again", () => engine!.ping().then(() => true), { timeoutMs: 15_000 });
  expect(await persistence(admin)).toEqual({ appendonly: "yes", appendfsync: "everysec" });
});

it("takes appendfsync always as asked", async () => {
  const { server, admin } = await startRedis();
  await admin.config("SET", "appendfsync", "everysec");
  engine = new RedisEngine({ url: server.url, appendfsync: "always" });
  await engine.waitUntilReady();
  expect(await persistence(admin)).toEqual({ appendonly: "yes", appendfsync: "always" });
});

it("takes no call from a Redis that refuses CONFIG, naming the refusal, and serves once it is allowed", async () => {
  const { server, admin } = await startRedis();
  await admin.call("ACL", "SETUSER", "app", "on", ">secret", "~*", "&*", "+@all", "-config");
  const url = `redis://app:secret@127.0.0.1:${server.port}`;
  engine = new RedisEngine({ url, appendfsync: "always" });
  const refused =
    /^store unavailable: redis refused CONFIG SET appendonly yes \/ appendfsync always \(NOPERM/;
  const startedAt = performance.now();
  const waited = await engine.waitUntilReady(5000).then(
    () => undefined,
    (error: unknown) => error,
  );
  // At once, not after the wait's timeout.
  expect(performance.now() - startedAt).toBeLessThan(2000);
  expect(waited).toBeInstanceOf(UnavailableError);
  expect((waited as Error).message).toMatch(refused);
  const call = await engine.apply([entry]).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(call).toBeInstanceOf(UnavailableError);
  expect((call as Error).message).toMatch(refused);
  expect(await persistence(admin)).toEqual({ appendonly: "no", appendfsync: "always" });
  // A later wait is told at once too.
  const again = performance.now();
  await expect(engine.waitUntilReady(5000)).rejects.toThrow(refused);
  expect(performance.now() - again).toBeLessThan(2000);

  // Allowed now: the engine's next try takes it and serves.
  await admin.call("ACL", "SETUSER", "app", "+config");
  await waitFor("the engine to serve", () => engine!.ping().then(() => true));
  expect(await persistence(admin)).toEqual({ appendonly: "yes", appendfsync: "always" });
  await engine.apply([entry]);
});
