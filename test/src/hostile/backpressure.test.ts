// A caller that sends without reading its replies cannot grow a backend's
// memory without bound: the backend stops reading a Pipe stream while its
// replies wait on the caller's flow control or too many of its operations
// run, and HTTP/2 flow control then stops the caller (docs/HAZARDS.md 14).
import { readFileSync } from "node:fs";
import * as http2 from "node:http2";
import { StorageClient } from "@binring/client";
import { encodeBatchRequest, MAX_OPERATIONS_PER_MESSAGE } from "@binring/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BackendProcess, RedisServer, startBackendProcess } from "../support/index.js";

/** The bound this test holds the backend to: its resident memory may grow by at most this. */
const RSS_GROWTH_LIMIT_BYTES = 256 * 1024 * 1024;
const VALUE = "v".repeat(4096);

let redis: RedisServer;
let backend: BackendProcess;

function rssBytes(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(line![1]) * 1024;
}

beforeAll(async () => {
  redis = await RedisServer.start();
  backend = await startBackendProcess({ redisUrl: redis.url, ready: true });
  const client = new StorageClient(backend.address, { bin: "bp" });
  await client.set("k", VALUE);
  await client.close();
});

afterAll(async () => {
  await backend?.child.kill("SIGTERM");
  await redis?.stop();
});

/** One gRPC message frame: uncompressed flag, 4-byte length, the bytes. */
function frame(message: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

// grpc-js's own client reads replies whether or not the caller consumes them
// (it buffered 8 GiB here), so the caller that never reads is raw HTTP/2: a
// request stream nobody reads gets no flow-control credit back.
it("a stream that never reads its replies is stopped by flow control, and others are still served", async () => {
  const pid = backend.child.pid;
  const before = rssBytes(pid);
  const session = http2.connect(`http://${backend.address}`);
  session.on("error", () => undefined);
  const stream = session.request({
    ":method": "POST",
    ":path": "/binring.v1.Storage/Pipe",
    "content-type": "application/grpc",
    te: "trailers",
  });
  stream.on("error", () => undefined);
  stream.pause();
  const target = { bin: "bp", epoch: "0", requireReady: false };
  const batch = (id: number) =>
    frame(
      encodeBatchRequest({
        id,
        operations: Array.from({ length: MAX_OPERATIONS_PER_MESSAGE }, () => ({ get: { target, key: "k" } })),
      }),
    );
  // Unbounded, these batches ask for 2000 x 1024 x 4 KiB = 8 GiB of replies.
  let sent = 0;
  let stuck = false;
  while (sent < 2000 && !stuck) {
    if (!stream.write(batch(sent))) {
      stuck = !(await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 2000);
        stream.once("drain", () => {
          clearTimeout(timer);
          resolve(true);
        });
      }));
    }
    sent++;
  }
  const growth = rssBytes(pid) - before;
  console.log(
    `backpressure: ${sent} batches sent before the stream stopped; backend RSS grew ${(growth / 2 ** 20).toFixed(1)} MiB`,
  );
  expect(stuck).toBe(true);
  expect(growth).toBeLessThan(RSS_GROWTH_LIMIT_BYTES);

  const other = new StorageClient(backend.address, { bin: "bp" });
  expect(await other.get("k")).toBe(VALUE);
  await other.close();
  stream.close(http2.constants.NGHTTP2_CANCEL);
  session.destroy();
}, 60_000);
