// Garbage and boundary values over the wire: each gets a clear gRPC status
// naming the field, nothing is written, and the backend stays up with its data.
import { connect } from "node:net";
import { BackendChannel, StorageClient } from "@binring/client";
import { CLOCK_CEILING, InvalidArgumentError, loadProtocol, MAX_CLOCK_JUMP } from "@binring/core";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BackendProcess, RedisServer, startBackendProcess } from "../support/index.js";

let redis: RedisServer;
let backend: BackendProcess;
let client: StorageClient;
let channel: BackendChannel;

beforeAll(async () => {
  redis = await RedisServer.start();
  backend = await startBackendProcess({ redisUrl: redis.url });
  client = new StorageClient(backend.address);
  channel = new BackendChannel(backend.address);
  await client.set("precious", "data");
  await client.listAppend("plist", "item");
});
afterAll(async () => {
  await client.close();
  channel.close();
  await backend.child.kill("SIGTERM");
  await redis.stop();
});

async function expectIntact(): Promise<void> {
  expect(await client.get("precious")).toBe("data");
  expect(await client.listGet("plist")).toEqual(["item"]);
  expect(await client.keys()).toEqual(["precious"]);
  expect(await client.listKeys()).toEqual(["plist"]);
}

describe("limits", () => {
  it("accepts a key of exactly 4 KiB and a value of exactly 1 MiB", async () => {
    const key = "k".repeat(4096);
    const value = "v".repeat(1024 * 1024);
    await client.set(key, value);
    expect(await client.get(key)).toBe(value);
    await client.set(key, "");
  });

  it.each([
    ["key", () => client.set("k".repeat(4097), "v"), /key is 4097 bytes, over the limit of 4096 bytes/],
    ["multi-byte key", () => client.set("é".repeat(2049), "v"), /key is 4098 bytes/],
    [
      "value",
      () => client.set("k", "v".repeat(1024 * 1024 + 1)),
      /value is 1048577 bytes, over the limit of 1048576/,
    ],
    ["list value", () => client.listAppend("plist", "v".repeat(1024 * 1024 + 1)), /value is 1048577 bytes/],
    ["prefix", () => client.keys({ prefix: "p".repeat(5000) }), /prefix is 5000 bytes/],
    ["suffix", () => client.listKeys({ suffix: "s".repeat(5000) }), /suffix is 5000 bytes/],
  ])("refuses an over-long %s with INVALID_ARGUMENT naming it", async (_name, call, message) => {
    const error = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(message);
    await expectIntact();
  });
});

describe("malformed requests", () => {
  it("refuses a malformed writer id or stamp", async () => {
    await expect(
      channel.execute({ set: { key: "precious", value: "evil", writer: "not-hex!" } }),
    ).rejects.toThrow(/writer must be 16 lowercase hex digits, got "not-hex!"/);
    await expect(
      channel.execute({
        set: { key: "precious", value: "evil", stamp: { clock: "999999", writer: "zz", seq: 1 } },
      }),
    ).rejects.toThrow(/stamp.writer must be 16 lowercase hex digits/);
    await expectIntact();
  });

  it("refuses an empty batch operation without failing its neighbours", async () => {
    const results = await Promise.allSettled([
      channel.execute({}),
      channel.execute({ get: { key: "precious" } }),
    ]);
    expect(results[0].status).toBe("rejected");
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/operation is empty/);
    expect(results[1].status).toBe("fulfilled");
  });

  it("refuses a clock past 2^62 or more than 2^32 ahead, and keeps counting below it", async () => {
    await expect(client.clock(2n ** 64n - 1n)).rejects.toThrow(/outside the clock range 0 \.\. 2\^62-1/);
    await expect(client.clock(CLOCK_CEILING)).rejects.toBeInstanceOf(InvalidArgumentError);
    const now = await client.clock();
    await expect(client.clock(now + MAX_CLOCK_JUMP + 10n)).rejects.toThrow(
      /more than 2\^32 above this backend's clock/,
    );
    const raised = await client.clock(now + MAX_CLOCK_JUMP);
    expect(raised).toBe(now + MAX_CLOCK_JUMP);
    expect(await client.clock()).toBe(raised + 1n);
  });

  it("refuses entries with a bad kind or no stamp in Apply", async () => {
    await expect(
      channel.apply(
        [{ bin: "", key: "precious", kind: "set", value: "evil", stamp: { clock: 1n, writer: "x", seq: 0 } }],
        0n,
      ),
    ).rejects.toThrow(/entries\[0\]\.stamp\.writer/);
    await expectIntact();
  });

  it("takes a heartbeat's keeper name up to 255 bytes and reports it heard; refuses a longer one", async () => {
    const longest = `k${"é".repeat(127)}`;
    const reply = await channel.heartbeat({ keeper: longest });
    // Heard in this very call: its age is the time the call took to answer.
    expect(Number(reply.keepers.find((sighting) => sighting.keeper === longest)?.ageMs)).toBeLessThan(1000);
    await expect(channel.heartbeat({ keeper: `${longest}x` })).rejects.toThrow(
      /keeper name of 256 bytes is longer than 255/,
    );
    await expectIntact();
  });

  it("refuses an owner term at 2^64-1 in a heartbeat or an empty with INVALID_ARGUMENT naming it, and stays unclaimed", async () => {
    const U64_MAX = 2n ** 64n - 1n;
    const heartbeat = await channel.heartbeat({ keeper: "k", ownerTerm: String(U64_MAX) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(heartbeat).toBeInstanceOf(InvalidArgumentError);
    expect((heartbeat as Error).message).toMatch(/ownerTerm 18446744073709551615 is outside the epoch range/);
    const { incarnation } = await channel.heartbeat({});
    await expect(channel.empty(incarnation, U64_MAX)).rejects.toThrow(/ownerTerm 18446744073709551615/);
    expect(await channel.heartbeat({})).toMatchObject({ owner: "", ownerTerm: "0" });
    await expectIntact();
  });
});

describe("garbage on the wire", () => {
  it("survives random bytes on its TCP port", async () => {
    const [host, port] = [backend.address.split(":")[0]!, Number(backend.address.split(":")[1])];
    await new Promise<void>((resolve) => {
      const socket = connect(port, host, () => {
        socket.write(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), () =>
          socket.destroy(),
        );
      });
      socket.on("close", () => resolve());
    });
    await expectIntact();
  });

  /** The status a raw unary call of `bytes` to `path` ends with. */
  async function rawUnary(path: string, bytes: Buffer): Promise<grpc.ServiceError | null> {
    const raw = new grpc.Client(backend.address, grpc.credentials.createInsecure());
    try {
      return await new Promise<grpc.ServiceError | null>((resolve) => {
        raw.makeUnaryRequest(
          path,
          () => bytes,
          (reply: Buffer) => reply,
          {},
          (error) => resolve(error),
        );
      });
    } finally {
      raw.close();
    }
  }

  it.each([
    // Storage.Set goes through proto-loader; StorageControl.Apply through the hand decoder (pipe-decode.ts).
    ["Set", "/binring.v1.Storage/Set"],
    ["Apply", "/binring.v1.StorageControl/Apply"],
  ])(
    "answers a %s call whose payload is not protobuf with INVALID_ARGUMENT naming the call",
    async (name, path) => {
      const status = await rawUnary(path, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x12, 0x99]));
      expect(status?.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(status?.details).toMatch(
        new RegExp(`^${name}: the request \\(7 bytes\\) is not a valid binring\\.v1 message: `),
      );
      await expectIntact();
      // The service definition is still the one clients use.
      expect(loadProtocol().Storage.service.Set.path).toBe("/binring.v1.Storage/Set");
    },
  );

  it("refuses an Apply entry of a kind it does not know, naming its number", async () => {
    // ApplyRequest { entries: [{ bin: "", key: "precious", kind: 9 }] }: field 1, then the entry's key (2) and kind (3).
    const entry = Buffer.concat([Buffer.from([0x12, 8]), Buffer.from("precious"), Buffer.from([0x18, 9])]);
    const status = await rawUnary(
      "/binring.v1.StorageControl/Apply",
      Buffer.concat([Buffer.from([0x0a, entry.length]), entry]),
    );
    expect(status?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(status?.details).toMatch(/entries\[0\]\.kind must be SET, APPEND or REMOVE, got 9/);
    await expectIntact();
  });

  it.each([
    ["Pipe", "/binring.v1.Storage/Pipe"],
    ["Heartbeats", "/binring.v1.StorageControl/Heartbeats"],
  ])(
    "ends a %s stream whose message is not protobuf with INVALID_ARGUMENT, and serves the next stream",
    async (name, path) => {
      const raw = new grpc.Client(backend.address, grpc.credentials.createInsecure());
      const status = await new Promise<grpc.ServiceError>((resolve) => {
        const stream = raw.makeBidiStreamRequest(
          path,
          (bytes: Buffer) => bytes,
          (bytes: Buffer) => bytes,
        );
        stream.on("data", () => {});
        stream.on("error", (error: grpc.ServiceError) => resolve(error));
        // Field 2 (operations; heartbeat), length-delimited, claiming 127 bytes that never come.
        stream.write(Buffer.from([0x12, 0x7f, 0x0a]));
      });
      raw.close();
      expect(status.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(status.details).toMatch(
        new RegExp(`^${name}: the request \\(3 bytes\\) is not a valid binring\\.v1 message: `),
      );
      await expectIntact();
    },
  );

  it("answers every one of 300 heartbeats sent at once on one stream, past the 64 it runs at a time", async () => {
    const keeper = new BackendChannel(backend.address);
    try {
      const replies = await Promise.all(
        Array.from({ length: 300 }, (_, i) => keeper.heartbeat({ keeper: `k${i % 7}` }, 30_000)),
      );
      expect(replies).toHaveLength(300);
      expect(new Set(replies.map((reply) => reply.incarnation)).size).toBe(1);
    } finally {
      keeper.close();
    }
    await expectIntact();
  });

  it("answers a heartbeat call that carries no heartbeat INVALID_ARGUMENT by its id, and the stream goes on", async () => {
    const { StorageControl } = loadProtocol();
    const control = new StorageControl(backend.address, grpc.credentials.createInsecure());
    const answers: { id: string; outcome: string; error?: { code: number; message: string } | null }[] = [];
    const stream = control.Heartbeats();
    stream.on("error", () => {});
    const twoAnswers = new Promise<void>((resolve) =>
      stream.on("data", (answer: (typeof answers)[number]) => {
        answers.push(answer);
        if (answers.length === 2) resolve();
      }),
    );
    stream.write({ id: "18446744073709551615" });
    stream.write({ id: "1", heartbeat: { keeper: "k" } });
    await twoAnswers;
    stream.cancel();
    control.close();
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    expect(byId.get("18446744073709551615")).toMatchObject({ outcome: "error" });
    expect(byId.get("18446744073709551615")!.error).toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
      message: "Heartbeats: call 18446744073709551615 carries no heartbeat",
    });
    expect(byId.get("1")).toMatchObject({ outcome: "reply" });
    await expectIntact();
  });

  it("ends a Scan whose request is not protobuf with INVALID_ARGUMENT at once, not silence", async () => {
    const raw = new grpc.Client(backend.address, grpc.credentials.createInsecure());
    const startedAt = performance.now();
    const status = await new Promise<grpc.ServiceError>((resolve) => {
      const stream = raw.makeServerStreamRequest(
        "/binring.v1.StorageControl/Scan",
        (bytes: Buffer) => bytes,
        (bytes: Buffer) => bytes,
        // Field 1 (ranges), length-delimited, claiming 100 bytes that never come.
        Buffer.from([0x0a, 0x64]),
      );
      stream.on("data", () => {});
      stream.on("error", (error: grpc.ServiceError) => resolve(error));
    });
    raw.close();
    expect(status.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(status.details).toMatch(/^Scan: the request \(2 bytes\) is not a valid binring\.v1 message: /);
    // A keeper's copy would otherwise wait out its idle timeout (a minute) for a status.
    expect(performance.now() - startedAt).toBeLessThan(5000);
    await expectIntact();
  });
});
