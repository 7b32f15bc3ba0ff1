// The SDK's data path to one backend: batches on one Pipe stream, answered by
// id. A paused backend times the batch out without breaking the stream; a
// killed one fails what was in flight, and the next batch opens a new stream
// once the backend is back. While a batch is unanswered, the next one waits
// for the answer (or for maxHoldMs), so batches grow with the load.
import { BackendChannel } from "@binring/client";
import { TimeoutError, UnavailableError } from "@binring/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BackendProcess, RedisServer, startBackendProcess, waitFor } from "../support/index.js";

let redis: RedisServer;
let backend: BackendProcess;

beforeAll(async () => {
  redis = await RedisServer.start();
  backend = await startBackendProcess({ redisUrl: redis.url, ready: true });
});
afterAll(async () => {
  await backend.child.kill("SIGKILL");
  await redis.stop();
});

const target = { bin: "pipe", epoch: "0", requireReady: false };

describe("Pipe stream", () => {
  it("answers each operation of many concurrent batches with its own result", async () => {
    // No hold: the batches of later turns go at once, so several are in flight together.
    const channel = new BackendChannel(backend.address, { maxHoldMs: 0 });
    try {
      const writes = Array.from({ length: 500 }, (_, i) =>
        channel.execute({ set: { target, key: `k${i}`, value: `v${i}` } }),
      );
      await Promise.all(writes);
      // Spread over several event-loop turns, so several batches are in flight at once.
      const reads = await Promise.all(
        Array.from({ length: 500 }, async (_, i) => {
          if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
          return channel.execute({ get: { target, key: `k${i}` } });
        }),
      );
      expect(reads.map((r) => r.get?.value)).toEqual(Array.from({ length: 500 }, (_, i) => `v${i}`));
      const refused = await channel
        .execute({ set: { target, key: "k".repeat(5000), value: "v" } })
        .catch((e: unknown) => e);
      expect((refused as Error).message).toMatch(/key is 5000 bytes/);
    } finally {
      channel.close();
    }
  });

  it("times out a batch to a paused backend, then serves on the same stream once it resumes", async () => {
    const channel = new BackendChannel(backend.address, { callTimeoutMs: 300 });
    try {
      await channel.execute({ get: { target, key: "k1" } });
      backend.child.signal("SIGSTOP");
      const stalled = await channel.execute({ get: { target, key: "k1" } }).catch((e: unknown) => e);
      expect(stalled).toBeInstanceOf(TimeoutError);
      backend.child.signal("SIGCONT");
      const reply = await channel.execute({ get: { target, key: "k1" } });
      expect(reply.get?.value).toBe("v1");
    } finally {
      backend.child.signal("SIGCONT");
      channel.close();
    }
  });

  it("fails in-flight operations when the backend dies and reconnects after it restarts", async () => {
    const channel = new BackendChannel(backend.address, { callTimeoutMs: 2000 });
    try {
      await channel.execute({ get: { target, key: "k1" } });
      backend.child.signal("SIGSTOP");
      const inFlight = channel.execute({ get: { target, key: "k1" } }).catch((e: unknown) => e);
      await backend.child.kill("SIGKILL");
      expect(await inFlight).toBeInstanceOf(UnavailableError);
      backend = await startBackendProcess({ redisUrl: redis.url, ready: true, listen: backend.address });
      const value = await waitFor(
        "the channel to reach the restarted backend",
        async () =>
          (await channel.execute({ get: { target, key: "k1" } }).catch(() => undefined))?.get?.value,
        { timeoutMs: 10_000 },
      );
      expect(value).toBe("v1");
    } finally {
      channel.close();
    }
  });

  it("holds the operations of later turns while a batch is unanswered, and sends them as one", async () => {
    const channel = new BackendChannel(backend.address, { callTimeoutMs: 10_000, maxHoldMs: 10_000 });
    try {
      await channel.execute({ set: { target, key: "held", value: "x" } });
      const before = { ...channel.sent };
      backend.child.signal("SIGSTOP");
      const first = channel.execute({ get: { target, key: "held" } });
      const later: Promise<unknown>[] = [];
      for (let i = 0; i < 50; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        later.push(channel.execute({ get: { target, key: "held" } }));
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(channel.sent.batches - before.batches).toBe(1);
      backend.child.signal("SIGCONT");
      const replies = (await Promise.all([first, ...later])) as Awaited<typeof first>[];
      expect(replies.map((r) => r.get?.value)).toEqual(Array(51).fill("x"));
      expect(channel.sent.batches - before.batches).toBe(2);
      expect(channel.sent.operations - before.operations).toBe(51);
    } finally {
      backend.child.signal("SIGCONT");
      channel.close();
    }
  });

  it("sends a held batch after maxHoldMs when the one in flight stays unanswered", async () => {
    const channel = new BackendChannel(backend.address, { callTimeoutMs: 10_000, maxHoldMs: 100 });
    try {
      await channel.execute({ get: { target, key: "held" } });
      const before = channel.sent.batches;
      backend.child.signal("SIGSTOP");
      const first = channel.execute({ get: { target, key: "held" } });
      await new Promise((resolve) => setImmediate(resolve));
      const second = channel.execute({ get: { target, key: "held" } });
      await waitFor(
        "the held batch to go while the backend is still paused",
        () => channel.sent.batches - before === 2,
      );
      backend.child.signal("SIGCONT");
      expect((await first).get?.value).toBe("x");
      expect((await second).get?.value).toBe("x");
    } finally {
      backend.child.signal("SIGCONT");
      channel.close();
    }
  });
});
