// ScanRequest.require_ready over gRPC, as a keeper's copy that reads one
// holder alone sends it: a backend that is not ready refuses it with NOT_READY
// (what sends the copy to every holder instead), and a ready one serves it.
import { type RunningBackend, startBackend } from "@binring/backend";
import { BackendChannel } from "@binring/client";
import { type Entry, NotReadyError, WHOLE_RING } from "@binring/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ENTRIES = 120;

const started: { backend: RunningBackend; channel: BackendChannel }[] = [];

async function backendHoldingEntries(ready: boolean): Promise<BackendChannel> {
  const backend = await startBackend({ listen: "127.0.0.1:0", store: { engine: "memory" }, ready });
  const channel = new BackendChannel(backend.address);
  started.push({ backend, channel });
  const entries: Entry[] = Array.from({ length: ENTRIES }, (_, i) => ({
    bin: `bin-${i % 12}`,
    key: `key-${i}`,
    kind: "set",
    value: "v",
    stamp: { clock: BigInt(i + 1), writer: "0123456789abcdef", seq: i },
  }));
  await channel.apply(entries, 0n);
  return channel;
}

async function scanned(channel: BackendChannel, requireReady: boolean): Promise<number> {
  let count = 0;
  for await (const batch of channel.scanFrames(WHOLE_RING, 50, 30_000, 0, requireReady))
    count += batch.length;
  return count;
}

let notReady: BackendChannel;
let ready: BackendChannel;

beforeAll(async () => {
  notReady = await backendHoldingEntries(false);
  ready = await backendHoldingEntries(true);
});
afterAll(async () => {
  for (const { backend, channel } of started) {
    channel.close();
    await backend.close();
  }
});

describe("a Scan that requires readiness", () => {
  it("is refused NOT_READY by a backend that is not ready, which still serves a plain Scan", async () => {
    const refusal = scanned(notReady, true);
    await expect(refusal).rejects.toBeInstanceOf(NotReadyError);
    await expect(refusal).rejects.toThrow("scan every holder");
    expect(await scanned(notReady, false)).toBe(ENTRIES);
  });

  it("is served whole by a ready backend", async () => {
    expect(await scanned(ready, true)).toBe(ENTRIES);
  });
});
