// A cluster without keepers, as the lab sets one up: one backend started
// plainly (not --ready), and a BinClient given only its address. Nothing will
// ever make the backend ready, so every call must be served at once, not wait
// out its deadline (read-path.ts).
import { BinClient } from "@binring/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BackendProcess, RedisServer, startBackendProcess } from "../support/index.js";

let redis: RedisServer;
let backend: BackendProcess;

beforeAll(async () => {
  redis = await RedisServer.start();
  backend = await startBackendProcess({ redisUrl: redis.url });
}, 30_000);

afterAll(async () => {
  await backend?.child.kill("SIGKILL");
  await redis?.destroy();
});

it("serves every call on one plainly started backend, each within a 2 s deadline", async () => {
  const client = new BinClient({ backends: [backend.address], callTimeoutMs: 2000 });
  const bin = client.bin("lab");
  try {
    await bin.set("k", "v");
    expect(await bin.get("k")).toBe("v");
    expect(await bin.keys({ prefix: "" })).toEqual(["k"]);
    await bin.listAppend("l", "a");
    await bin.listAppend("l", "b");
    expect(await bin.listGet("l")).toEqual(["a", "b"]);
    expect(await bin.listRemove("l", "a")).toBe(1);
    expect(await bin.listKeys({ prefix: "" })).toEqual(["l"]);
    expect(await bin.clock(0n)).toBeGreaterThan(0n);
  } finally {
    await client.close();
  }
});
