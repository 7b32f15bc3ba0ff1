// A Scan that asks for a rate (ScanRequest.bytes_per_second, what a keeper's
// rebalancing copy sends each source) is read and sent no faster than it,
// counted in the entries' encoded bytes, and carries the same entries as an
// unpaced one. A Scan has no deadline of its own: it fails only when the
// backend sends nothing for the caller's idle timeout (client idle-stream.ts).
import { type RunningBackend, startBackend } from "@binring/backend";
import { BackendChannel } from "@binring/client";
import { type Entry, type EntryFrame, WHOLE_RING } from "@binring/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ENTRIES = 400;
const BATCH = 50;

let backend: RunningBackend;
let channel: BackendChannel;

beforeAll(async () => {
  backend = await startBackend({ listen: "127.0.0.1:0", store: { engine: "memory" }, ready: true });
  channel = new BackendChannel(backend.address);
  const entries: Entry[] = Array.from({ length: ENTRIES }, (_, i) => ({
    bin: `bin-${i % 20}`,
    key: `key-${i}`,
    kind: "set",
    value: "v".repeat(1000),
    stamp: { clock: BigInt(i + 1), writer: "0123456789abcdef", seq: i },
  }));
  await channel.apply(entries, 0n);
});
afterAll(async () => {
  channel.close();
  await backend.close();
});

async function scan(bytesPerSecond: number, idleTimeoutMs = 30_000): Promise<EntryFrame[]> {
  const frames: EntryFrame[] = [];
  for await (const batch of channel.scanFrames(WHOLE_RING, BATCH, idleTimeoutMs, bytesPerSecond))
    frames.push(...batch);
  return frames;
}

const bytesOf = (frames: readonly EntryFrame[]) => frames.reduce((sum, frame) => sum + frame.length, 0);
const sorted = (frames: readonly EntryFrame[]) =>
  frames.map((frame) => Buffer.from(frame).toString("hex")).sort();

describe("a paced Scan", () => {
  it("takes at least its bytes over the rate, and carries what an unpaced one does", async () => {
    const unpaced = await scan(0);
    expect(unpaced).toHaveLength(ENTRIES);
    const total = bytesOf(unpaced);
    // Paced to a second's worth of what there is: less than that is the pace broken (or counting too few bytes).
    const startedAt = performance.now();
    const paced = await scan(total);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(950);
    expect(sorted(paced)).toEqual(sorted(unpaced));
  });

  it("runs longer than its idle timeout in all, as long as the backend keeps sending", async () => {
    const total = bytesOf(await scan(0));
    // A second at the rate, a message about every 125 ms: a deadline of 400 ms on the whole stream would fail it.
    expect(await scan(total, 400)).toHaveLength(ENTRIES);
  });

  it("fails, naming the backend, once the backend sends nothing for its idle timeout", async () => {
    const startedAt = performance.now();
    // At 1 B/s the first message is sent, and the next is due in about a minute.
    await expect(scan(1, 300)).rejects.toThrow(`scan of ${backend.address} sent nothing for 300 ms`);
    expect(performance.now() - startedAt).toBeLessThan(5000);
    // The backend still serves scans afterwards.
    expect(await scan(0)).toHaveLength(ENTRIES);
  });
});
