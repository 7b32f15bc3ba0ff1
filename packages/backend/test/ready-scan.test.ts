// A scan that requires readiness (ScanRequest.require_ready): what a copy
// reading this backend alone relies on. Refused unless the backend is ready,
// and failed at its end unless it stayed ready in one incarnation throughout:
// a backend that lost entries mid-scan and was refilled and granted again is
// ready at both ends, yet what the scan read before the loss may be partial.
import { DEFAULT_LIMITS, type Entry, NotReadyError, UnavailableError, WHOLE_RING } from "@binring/core";
import { describe, expect, it } from "vitest";
import { BackendNode } from "../src/backend-node.js";
import { MemoryEngine } from "../src/memory-engine.js";

const LEASE_MS = 2500;
const grant = { epoch: 0n, clockFloor: 0n, ready: true, leaseMs: LEASE_MS, filled: true };
const target = { bin: "b", epoch: 0n, requireReady: false };

/** A memory store whose next string read fails, as a Redis that went away. */
class FailingOnce extends MemoryEngine {
  failNextRead = false;
  override getString(bin: string, key: string) {
    if (!this.failNextRead) return super.getString(bin, key);
    this.failNextRead = false;
    return Promise.reject(new UnavailableError("store unreachable"));
  }
}

async function backend() {
  const clock = { now: 0 };
  const engine = new FailingOnce();
  const node = new BackendNode({ engine, limits: DEFAULT_LIMITS, now: () => clock.now });
  const entries: Entry[] = ["k1", "k2", "k3"].map((key, i) => ({
    bin: "b",
    key,
    kind: "set",
    value: "v",
    stamp: { clock: BigInt(i + 1), writer: "0123456789abcdef", seq: i },
  }));
  await node.apply(entries, 0n);
  return { node, clock, engine };
}

async function scanAll(node: BackendNode, requireReady: boolean): Promise<number> {
  let count = 0;
  for await (const batch of node.scan(WHOLE_RING, 1, requireReady)) count += batch.length;
  return count;
}

/** Reads what is left of a scan: how it ends. */
async function rest(scan: AsyncIterator<Entry[]>): Promise<void> {
  while (!(await scan.next()).done);
}

describe("a scan that requires readiness", () => {
  it("is refused by a backend that is not ready; a plain scan is not", async () => {
    const { node } = await backend();
    await expect(scanAll(node, true)).rejects.toBeInstanceOf(NotReadyError);
    expect(await scanAll(node, false)).toBe(3);
  });

  it("reads everything from a backend ready throughout", async () => {
    const { node } = await backend();
    await node.heartbeat(grant);
    expect(await scanAll(node, true)).toBe(3);
  });

  it("fails when the readiness lease lapses before the scan ends", async () => {
    const { node, clock } = await backend();
    await node.heartbeat(grant);
    const scan = node.scan(WHOLE_RING, 1, true)[Symbol.asyncIterator]();
    expect((await scan.next()).value).toHaveLength(1);
    clock.now = LEASE_MS + 1;
    await expect(rest(scan)).rejects.toBeInstanceOf(NotReadyError);
  });

  it("fails when the backend lost entries and was granted readiness again during the scan", async () => {
    const { node, engine } = await backend();
    await node.heartbeat(grant);
    const scan = node.scan(WHOLE_RING, 1, true)[Symbol.asyncIterator]();
    expect((await scan.next()).value).toHaveLength(1);
    engine.failNextRead = true;
    await expect(node.get(target, "k1")).rejects.toBeInstanceOf(UnavailableError);
    expect(node.ready).toBe(false);
    await node.heartbeat(grant);
    expect(node.ready).toBe(true);
    await expect(rest(scan)).rejects.toBeInstanceOf(NotReadyError);
  });
});
