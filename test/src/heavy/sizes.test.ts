// Sizes are bytes end to end (docs/HAZARDS.md 13), over the real wire: a
// list at its limit is readable, survives its primary's death and is copied
// whole; a bin whose keys pass one reply is refused clearly and readable by
// prefix; many large writes at once and over-long values fail or succeed
// cleanly; batches past the operation limit are refused. It moves tens of
// megabytes, so it runs alone (test/src/heavy, after the parallel tests): next
// to other clusters on two cores its backends stall for seconds.
import { BackendChannel, BinClient } from "@binring/client";
import {
  HashRing,
  InvalidArgumentError,
  ListFullError,
  loadProtocol,
  MAX_OPERATIONS_PER_MESSAGE,
  newWriterId,
  ReplyTooLargeError,
} from "@binring/core";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalCluster, waitForSettled } from "../support/index.js";

const MiB = 1024 * 1024;
/** 1 MiB - 100 B: the value; eight fill a list to just under its 8 MiB limit (each counts value + 64). */
const BIG = 1024 * 1024 - 100;

let cluster: LocalCluster;
let client: BinClient;
let http: string;

function allReady(): Record<string, string> {
  return Object.fromEntries(cluster.addresses.map((address) => [address, "ready"]));
}

function bigValue(i: number): string {
  return String(i).padStart(8, "0") + "x".repeat(BIG - 8);
}

beforeAll(async () => {
  // Default keeper timing: these tests move tens of megabytes, and the tests' fast leases flap on a loaded machine.
  // Redis syncs once a second: these tests write tens of megabytes, and an fsync of each on every replica
  // stalls a loaded machine's disk for seconds (durability itself is durability.test.ts's).
  cluster = await LocalCluster.start({ backends: 4, keepers: 1, keeperArgs: [], appendfsync: "everysec" });
  http = cluster.keeperHttp[0]!;
  await waitForSettled(http, allReady());
  // A replica call here carries megabytes: on a loaded machine one takes seconds, and an attempt
  // given up on after the default 2 s is sent again whole, adding to the load it waited on.
  client = await BinClient.fromConfig(cluster.configPath, {
    callTimeoutMs: 40_000,
    backendCallTimeoutMs: 10_000,
  });
}, 60_000);

afterAll(async () => {
  await client?.close();
  await cluster?.stop();
});

describe("a list at its limit", () => {
  it("takes appends up to 8 MiB, refuses the next at once, reads back, and is copied whole after its primary dies", async () => {
    const bin = client.bin("big-list");
    for (let i = 0; i < 8; i++) await bin.listAppend("l", bigValue(i));
    const startedAt = Date.now();
    const refused = await bin.listAppend("l", bigValue(8)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ListFullError);
    expect((refused as Error).message).toMatch(/would pass the limit of 8388608 bytes/);
    expect(Date.now() - startedAt).toBeLessThan(5000);
    const expected = Array.from({ length: 8 }, (_, i) => bigValue(i));
    expect(await bin.listGet("l")).toEqual(expected);

    const ring = new HashRing(cluster.addresses.map((id) => ({ id })));
    const primary = ring.replicasFor("big-list")[0]!;
    await cluster.kill(primary);
    await waitForSettled(http, { ...allReady(), [primary]: "dead" }, 60_000);
    expect(await bin.listGet("l")).toEqual(expected);
    // Every replica of the new placement holds the whole list.
    for (const replica of ring.replicasFor("big-list", (id) => id !== primary)) {
      const channel = new BackendChannel(replica, { callTimeoutMs: 10_000 });
      try {
        const { listGet } = await channel.execute({
          listGet: { target: { bin: "big-list", epoch: "0", requireReady: false }, key: "l" },
        });
        expect(listGet?.values.length, replica).toBe(8);
        expect(listGet?.values).toEqual(expected);
      } finally {
        channel.close();
      }
    }
    await cluster.restart(primary, { redis: "old" });
    await waitForSettled(http, allReady(), 60_000);
    expect(await bin.listGet("l")).toEqual(expected);
  }, 120_000);
});

describe("a bin whose keys pass one reply", () => {
  it("answers keys() up to 32 MiB of names, refuses more with RESOURCE_EXHAUSTED, and reads by prefix", async () => {
    const bin = client.bin("many-keys");
    const name = (group: string, i: number) => `${group}${String(i).padStart(6, "0")}${"k".repeat(4000)}`;
    const write = async (group: string, count: number) => {
      for (let i = 0; i < count; i += 200) {
        await Promise.all(
          Array.from({ length: Math.min(200, count - i) }, (_, j) => bin.set(name(group, i + j), "v")),
        );
      }
    };
    await write("a", 7000);
    expect(await bin.keys()).toHaveLength(7000);
    await write("b", 1500);
    await expect(bin.keys()).rejects.toThrow(
      /the keys reply passed the largest reply of 33554432 bytes at \d+ bytes \(\d+ items\)/,
    );
    await expect(bin.keys()).rejects.toBeInstanceOf(ReplyTooLargeError);
    expect(await bin.keys({ prefix: "b" })).toHaveLength(1500);
  }, 120_000);
});

describe("large and many", () => {
  it("65 concurrent writes of 1 MiB to one bin all succeed and read back", async () => {
    const bin = client.bin("concurrent-big");
    await Promise.all(Array.from({ length: 65 }, (_, i) => bin.set(`k${i}`, bigValue(i))));
    const values = await Promise.all(Array.from({ length: 65 }, (_, i) => bin.get(`k${i}`)));
    // Compared by length and prefix: a failure message must not print 65 MiB.
    const found = values.map((value) => (value === null ? null : `${value.length}:${value.slice(0, 8)}`));
    expect(found).toEqual(Array.from({ length: 65 }, (_, i) => `${BIG}:${bigValue(i).slice(0, 8)}`));
  }, 90_000);

  it("65 one-message writes of 1 MiB made in one turn on one link go in messages under the frame limit", async () => {
    const address = cluster.addresses[2]!;
    const channel = new BackendChannel(address, { callTimeoutMs: 40_000, link: true });
    const writer = newWriterId();
    const target = { bin: "one-turn-big", epoch: "0", requireReady: false };
    try {
      const writes = await Promise.all(
        Array.from({ length: 65 }, (_, i) =>
          channel.execute({
            write: {
              kind: "ENTRY_KIND_SET",
              entry: { target, key: `k${i}`, value: bigValue(i), writer, seq: i },
              replicas: [address],
              coordinator: 0,
              timeoutMs: 40_000,
            },
          }),
        ),
      );
      expect(writes.every((result) => result.write?.stamp?.writer === writer)).toBe(true);
      const reads = await Promise.all(
        Array.from({ length: 65 }, (_, i) => channel.execute({ get: { target, key: `k${i}` } })),
      );
      const found = reads.map((read) => `${read.get?.value?.length}:${read.get?.value?.slice(0, 8)}`);
      expect(found).toEqual(Array.from({ length: 65 }, (_, i) => `${BIG}:${bigValue(i).slice(0, 8)}`));
    } finally {
      channel.close();
    }
  }, 90_000);

  it("an over-long value is refused at once with INVALID_ARGUMENT naming it", async () => {
    const startedAt = Date.now();
    const error = await client
      .bin("x")
      .set("k", "v".repeat(70 * MiB))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(/value is 73400320 bytes, over the limit of 8388608 bytes/);
    const onBackend = await client
      .bin("x")
      .set("k", "v".repeat(2 * MiB))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(onBackend).toBeInstanceOf(InvalidArgumentError);
    expect((onBackend as Error).message).toMatch(/value is 2097152 bytes, over the limit of 1048576 bytes/);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });

  it("a Pipe message of more operations than the limit ends that stream with RESOURCE_EXHAUSTED", async () => {
    const Storage = loadProtocol().Storage;
    const raw = new Storage(cluster.addresses[1]!, grpc.credentials.createInsecure());
    try {
      const status = await new Promise<grpc.ServiceError>((resolve) => {
        const pipe = raw.Pipe();
        pipe.on("data", () => undefined);
        pipe.on("error", resolve);
        const target = { bin: "b", epoch: "0", requireReady: false };
        pipe.write({
          id: 1,
          operations: Array.from({ length: MAX_OPERATIONS_PER_MESSAGE + 1 }, () => ({
            get: { target, key: "k" },
          })),
        });
      });
      expect(status.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(status.details).toMatch(/a batch of 1025 operations is over the limit of 1024/);
    } finally {
      raw.close();
    }
    expect(await client.bin("after-pipe").set("k", "v")).toBe(true);
  });
});
