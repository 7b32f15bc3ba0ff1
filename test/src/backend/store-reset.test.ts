// A Redis that restarts under a running backend may have lost entries the
// backend acknowledged (no append-only file, or one that lagged). The engine
// notices (a new run_id) before any call reaches the new Redis, and the
// backend stops serving reads until a keeper refills it (HAZARDS.md 4); its
// clock reservation, lost too, is persisted again above every value handed out,
// and it becomes another incarnation, so only a fill begun after the restart
// can make it ready again.
import { BackendNode, RedisEngine } from "@binring/backend";
import { DEFAULT_LIMITS, type Entry } from "@binring/core";
import { Redis } from "ioredis";
import { afterAll, expect, it } from "vitest";
import { RedisServer, waitFor } from "../support/index.js";

let redis: RedisServer | undefined;
let engine: RedisEngine | undefined;
afterAll(async () => {
  await engine?.close();
  await redis?.destroy();
});

it("a Redis restarted under the backend makes it not ready and in need of a fill", async () => {
  redis = await RedisServer.start({ appendOnly: false });
  engine = new RedisEngine({ url: redis.url });
  await engine.waitUntilReady();
  const node = new BackendNode({ engine, limits: DEFAULT_LIMITS, ready: true });
  const resets: string[] = [];
  engine.onReset((reason) => resets.push(reason));
  const entry: Entry = {
    bin: "bin",
    key: "k",
    kind: "set",
    value: "acknowledged",
    stamp: { clock: 5n, writer: "0123456789abcdef", seq: 1 },
  };
  await node.apply([entry], 0n);
  const readyRead = { bin: "bin", epoch: 0n, requireReady: true };
  expect((await node.get(readyRead, "k"))?.value).toBe("acknowledged");
  const clockBefore = node.clock.peek();
  const incarnationBefore = node.incarnation;

  // Without an append-only file, the restarted Redis has lost everything.
  await redis.kill("SIGKILL");
  await redis.restart();
  await waitFor("the engine to reconnect", () => engine!.ping().then(() => true));
  expect(resets).toHaveLength(1);
  expect(resets[0]).toMatch(/redis restarted/);
  expect(node.ready).toBe(false);
  expect((await node.state()).needsFill).toBe(true);
  await expect(node.get(readyRead, "k")).rejects.toThrow(/may be missing/);
  // What the new Redis holds, not what the read cache held before the restart.
  expect(await engine.getString("bin", "k")).toBeNull();
  await waitFor("the clock reservation to be persisted again", async () => {
    return (await engine!.loadClockReservation()) > clockBefore;
  });

  // A fill that started before the restart copied into the lost Redis: its grant must not make the node ready.
  expect(node.incarnation).not.toBe(incarnationBefore);
  const staleGrant = { epoch: 0n, clockFloor: 0n, ready: true, leaseMs: 0, filled: true };
  expect((await node.heartbeat({ ...staleGrant, incarnation: incarnationBefore })).ready).toBe(false);
  expect((await node.heartbeat({ ...staleGrant, incarnation: node.incarnation })).ready).toBe(true);
});

it("a reconnection to the same Redis is no reset", async () => {
  const same = await RedisServer.start({ appendOnly: false });
  const reconnecting = new RedisEngine({ url: same.url });
  await reconnecting.waitUntilReady();
  const resets: string[] = [];
  reconnecting.onReset((reason) => resets.push(reason));
  const admin = new Redis(same.url);
  const others = async () => {
    const own = await admin.client("ID");
    const list = String(await admin.client("LIST"));
    return (list.match(/^id=\d+/gm) ?? []).filter((id) => id !== `id=${own}`);
  };
  const before: string[] = await others();
  // Closes the engine's connection (not this one): it reconnects to the same process.
  await admin.client("KILL", "TYPE", "normal");
  await waitFor("the engine to reconnect", async () => {
    const now = await others();
    return now.some((id) => !before.includes(id)) && (await reconnecting.ping().then(() => true));
  });
  expect(resets).toEqual([]);
  admin.disconnect();
  await reconnecting.close();
  await same.destroy();
});

it("keeps asking a connected Redis for its run_id until it answers, and serves only then", async () => {
  const server = await RedisServer.start();
  const admin = new Redis(server.url);
  // A user that may not run INFO, as a Redis refusing the question would.
  await admin.call("ACL", "SETUSER", "binring", "on", "nopass", "~*", "+@all", "-info");
  const engine = new RedisEngine({ url: `redis://binring@127.0.0.1:${server.port}` });
  await expect(engine.waitUntilReady(500)).rejects.toThrow(/not reachable/);
  await expect(engine.ping()).rejects.toThrow(/store unavailable/);
  await admin.call("ACL", "SETUSER", "binring", "+info");
  await engine.waitUntilReady(2000);
  await engine.ping();
  admin.disconnect();
  await engine.close();
  await server.destroy();
});

it("a write its store refused makes the backend another incarnation, in need of a fill", async () => {
  const server = await RedisServer.start({ appendOnly: true });
  const refusing = new RedisEngine({ url: server.url });
  await refusing.waitUntilReady();
  const node = new BackendNode({ engine: refusing, limits: DEFAULT_LIMITS, ready: true });
  const before = node.incarnation;
  await server.kill("SIGKILL");
  const entry: Entry = {
    bin: "bin",
    key: "k",
    kind: "set",
    value: "skipped here, acknowledged by the other replicas",
    stamp: { clock: 5n, writer: "0123456789abcdef", seq: 1 },
  };
  await expect(node.apply([entry], 0n)).rejects.toThrow(/store unavailable/);
  expect(node.ready).toBe(false);
  // A fill already under way may have copied this bin before the write: its grant must not count.
  expect(node.incarnation).not.toBe(before);
  await server.restart();
  await waitFor("the engine to reconnect", () => refusing.ping().then(() => true));
  const grant = { epoch: 0n, clockFloor: 0n, ready: true, leaseMs: 0, filled: true };
  expect((await node.heartbeat({ ...grant, incarnation: before })).ready).toBe(false);
  expect((await node.state()).needsFill).toBe(true);
  await refusing.close();
  await server.destroy();
});

it("a read or claim its store could not answer makes the backend another incarnation, in need of a fill; a keeper's heartbeat does not", async () => {
  const server = await RedisServer.start({ appendOnly: true });
  const failing = new RedisEngine({ url: server.url });
  await failing.waitUntilReady();
  const node = new BackendNode({ engine: failing, limits: DEFAULT_LIMITS, ready: true });
  const readyRead = { bin: "bin", epoch: 0n, requireReady: true };
  // The client that hears "store unavailable" takes this backend for gone and writes skip it
  // (failure-kind.ts), so no reader may find it ready afterwards.
  for (const call of [
    () => node.get(readyRead, "k"),
    () => node.claim({ ...readyRead, requireReady: false }, "0123456789abcdef", 1, "claim-1"),
  ]) {
    await node.heartbeat({
      epoch: 0n,
      clockFloor: 0n,
      ready: true,
      leaseMs: 0,
      filled: true,
      incarnation: node.incarnation,
    });
    expect(node.ready).toBe(true);
    const before = node.incarnation;
    await server.kill("SIGKILL");
    // A keeper's heartbeat makes nobody skip the backend: it sees the store down, and the backend stays ready.
    expect((await node.state()).storeOk).toBe(false);
    expect(node.ready).toBe(true);
    await expect(call()).rejects.toThrow(/store unavailable/);
    expect(node.ready).toBe(false);
    expect(node.incarnation).not.toBe(before);
    expect((await node.state()).needsFill).toBe(true);
    await server.restart();
    await waitFor("the engine to reconnect", () => failing.ping().then(() => true));
  }
  await failing.close();
  await server.destroy();
});
