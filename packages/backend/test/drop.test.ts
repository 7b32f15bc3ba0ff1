// A keeper's drop is fenced by its view's epoch: a drop planned under an older
// view than the backend knows — sent by a keeper that was paused, or held on a
// slow link, while a death made this backend a holder of those bins again —
// must not delete what the newer view's repair copies here.
import { DEFAULT_LIMITS, type RingRange, StaleEpochError, WHOLE_RING } from "@binring/core";
import { describe, expect, it } from "vitest";
import { BackendNode } from "../src/backend-node.js";
import { MemoryEngine } from "../src/memory-engine.js";

/** Calls `onCheck` each time a drop asks whether to go on, before the next bin. */
class WatchedDropEngine extends MemoryEngine {
  onCheck: ((checks: number) => void) | undefined;

  /** The rest the last drop was given. */
  rest: ((roundMs: number) => Promise<void>) | undefined;

  override drop(
    ranges: readonly RingRange[],
    stop?: () => boolean,
    rest?: (roundMs: number) => Promise<void>,
  ): Promise<number> {
    let checks = 0;
    this.rest = rest;
    return super.drop(
      ranges,
      () => {
        this.onCheck?.(++checks);
        return stop?.() ?? false;
      },
      rest,
    );
  }
}

const BINS = 10;

async function backendAtEpoch(epoch: bigint) {
  const engine = new WatchedDropEngine();
  const node = new BackendNode({ engine, limits: DEFAULT_LIMITS });
  await node.heartbeat({ epoch, clockFloor: 0n, leaseMs: 0 });
  for (let i = 0; i < BINS; i++) {
    await node.write({ bin: `bin-${i}`, epoch, requireReady: false }, { kind: "set", key: "k", value: "v" });
  }
  return { engine, node };
}

async function binsHeld(node: BackendNode): Promise<number> {
  const bins = new Set<string>();
  for await (const batch of node.scan(WHOLE_RING, 1000)) for (const entry of batch) bins.add(entry.bin);
  return bins.size;
}

describe("BackendNode.drop", () => {
  it("drops every bin of the ranges under the view the backend knows", async () => {
    const { node } = await backendAtEpoch(5n);
    expect(await node.drop(WHOLE_RING, 5n)).toBe(BINS);
    expect(await binsHeld(node)).toBe(0);
  });

  it("rests after each round three times as long as the round took, leaving the store to clients' calls", async () => {
    const { engine, node } = await backendAtEpoch(5n);
    await node.drop(WHOLE_RING, 5n);
    const rest = engine.rest;
    expect(rest).toBeDefined();
    const startedAt = performance.now();
    await rest!(20);
    // A timer may fire up to a millisecond early.
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(59);
  });

  it("refuses a drop under an older view, naming both epochs, and deletes nothing", async () => {
    const { node } = await backendAtEpoch(5n);
    const refused = await node.drop(WHOLE_RING, 4n).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StaleEpochError);
    expect((refused as Error).message).toMatch(/epoch 4 but the backend is at epoch 5/);
    expect(await binsHeld(node)).toBe(BINS);
  });

  it("stops before the next bins once a newer view arrives, and says so", async () => {
    const { engine, node } = await backendAtEpoch(5n);
    // A keeper fences this backend for a newer view part way through the drop.
    engine.onCheck = (checks) => {
      if (checks === 3) void node.heartbeat({ epoch: 6n, clockFloor: 0n, leaseMs: 0 });
    };
    await expect(node.drop(WHOLE_RING, 5n)).rejects.toBeInstanceOf(StaleEpochError);
    expect(await binsHeld(node)).toBe(BINS - 2);
  });

  it("names an epoch past its bound", async () => {
    const { node } = await backendAtEpoch(5n);
    await expect(node.drop(WHOLE_RING, 2n ** 64n - 1n)).rejects.toThrow(/epoch/);
    expect(await binsHeld(node)).toBe(BINS);
  });
});
