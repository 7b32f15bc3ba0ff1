// A Redis that cannot take a call now is not a Redis that failed. OOM
// (maxmemory reached) and BUSY (a script runs past its threshold) replies mean
// the call did nothing: the engine fails that call with RESOURCE_EXHAUSTED,
// naming the cause, and the backend stays ready (it lost no entry, so writers
// must not skip it and no refill is due); the engine works again as soon as
// Redis does. A hung Redis (SIGSTOP) fails calls UNAVAILABLE after the command
// timeout instead of piling them up.
import { BackendNode, RedisEngine } from "@binring/backend";
import { DEFAULT_LIMITS, type Entry, ResourceExhaustedError, UnavailableError } from "@binring/core";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { RedisServer, waitFor } from "../support/index.js";

const COMMAND_TIMEOUT_MS = 300;

let server: RedisServer;
let admin: Redis;
const engines: RedisEngine[] = [];
let seq = 0;

beforeAll(async () => {
  server = await RedisServer.start();
  admin = new Redis(server.url);
});
afterEach(async () => {
  if (!server.running) return;
  server.signal("SIGCONT");
  await admin.config("SET", "maxmemory", "0");
});
afterAll(async () => {
  admin.disconnect();
  await Promise.all(engines.map((engine) => engine.close()));
  await server.destroy();
});

async function openEngine(prefix: string, commandTimeoutMs?: number): Promise<RedisEngine> {
  const engine = new RedisEngine({ url: server.url, keyPrefix: prefix, commandTimeoutMs });
  engines.push(engine);
  await engine.waitUntilReady();
  return engine;
}

function set(key: string, value: string): Entry {
  return { bin: "b", key, kind: "set", value, stamp: { clock: 1n, writer: "0123456789abcdef", seq: seq++ } };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

it("fails a write with RESOURCE_EXHAUSTED while Redis is out of memory, keeps the backend ready, and works once maxmemory is raised", async () => {
  const engine = await openEngine("oom:");
  const node = new BackendNode({ engine, limits: DEFAULT_LIMITS, ready: true });
  const target = { bin: "b", epoch: 0n, requireReady: false };
  await node.write(target, { kind: "set", key: "before", value: "v" });
  const incarnation = node.incarnation;

  await admin.config("SET", "maxmemory-policy", "noeviction");
  await admin.config("SET", "maxmemory", "1");
  for (const write of [
    () => node.write(target, { kind: "set", key: "during", value: "v" }),
    () => node.write(target, { kind: "append", key: "l", value: "v" }),
    () => engine.apply([set("direct", "v")]),
  ]) {
    const error = await failure(write());
    expect(error).toBeInstanceOf(ResourceExhaustedError);
    expect((error as Error).message).toMatch(/^store out of memory: OOM .*raise maxmemory or delete data$/);
  }
  // Nothing was lost: still ready, no fill due, the same incarnation; reads still work.
  expect(node.ready).toBe(true);
  const state = await node.state();
  expect(state.needsFill).toBe(false);
  expect(state.storeOk).toBe(true);
  expect(node.incarnation).toBe(incarnation);
  expect((await node.get({ ...target, requireReady: true }, "before"))?.value).toBe("v");

  await admin.config("SET", "maxmemory", "0");
  await node.write(target, { kind: "set", key: "after", value: "v" });
  expect((await engine.getString("b", "after"))?.value).toBe("v");
  expect(await engine.getString("b", "during")).toBeNull();
});

it("fails a call with RESOURCE_EXHAUSTED while a script keeps Redis busy, and works once it ends", async () => {
  const engine = await openEngine("busy:");
  await admin.config("SET", "busy-reply-threshold", "50");
  const blocker = new Redis(server.url);
  try {
    const spin = blocker.eval("local i = 0 while true do i = i + 1 end", 0).catch((error: unknown) => error);
    await waitFor("Redis to answer BUSY", async () => {
      const error = await failure(admin.ping());
      return error instanceof Error && /^BUSY/.test(error.message);
    });
    const error = await failure(engine.apply([set("k", "v")]));
    expect(error).toBeInstanceOf(ResourceExhaustedError);
    expect((error as Error).message).toMatch(/^store busy: BUSY /);
    await admin.call("SCRIPT", "KILL");
    expect(String(await spin)).toMatch(/killed/i);
    await engine.apply([set("k", "v")]);
    expect((await engine.getString("b", "k"))?.value).toBe("v");
  } finally {
    blocker.disconnect();
    await admin.config("SET", "busy-reply-threshold", "5000");
  }
});

it(`fails calls to a hung Redis UNAVAILABLE within the command timeout (${COMMAND_TIMEOUT_MS} ms), and works once it resumes`, async () => {
  const engine = await openEngine("hung:", COMMAND_TIMEOUT_MS);
  await engine.apply([set("k", "v")]);
  server.signal("SIGSTOP");
  try {
    const startedAt = performance.now();
    const errors = await Promise.all([
      failure(engine.apply([set("k2", "v")])),
      failure(engine.getString("b", "not-cached")),
      failure(engine.ping()),
    ]);
    const elapsed = performance.now() - startedAt;
    for (const error of errors) {
      expect(error).toBeInstanceOf(UnavailableError);
      expect((error as Error).message).toMatch(
        new RegExp(`^store unavailable: redis did not answer within ${COMMAND_TIMEOUT_MS} ms`),
      );
    }
    expect(elapsed).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(COMMAND_TIMEOUT_MS + 1000);
  } finally {
    server.signal("SIGCONT");
  }
  await waitFor("the engine to answer again", () => engine.ping().then(() => true));
  await engine.apply([set("k3", "v")]);
  expect((await engine.getString("b", "k3"))?.value).toBe("v");
});
