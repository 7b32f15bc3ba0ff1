// Emptying a backend before its fill (a keeper does it after a death) must
// never reach a backend that readers rely on, nor let a fill that overlapped
// it make the backend ready: a keeper may act on an old answer (it was paused,
// or another keeper has filled the backend since), and an empty that timed out
// at the keeper keeps running on the backend.
import { DEFAULT_LIMITS, type RingRange } from "@binring/core";
import { describe, expect, it } from "vitest";
import { BackendNode } from "../src/backend-node.js";
import { MemoryEngine } from "../src/memory-engine.js";

/** The memory engine, whose drops wait for `release()`: an empty that takes its time. */
class SlowDropEngine extends MemoryEngine {
  #gate: Promise<void> | undefined;
  #open: (() => void) | undefined;
  /** Resolves when a held drop has begun. */
  dropping: Promise<void> = Promise.resolve();
  #began: (() => void) | undefined;

  hold(): void {
    this.#gate = new Promise((resolve) => {
      this.#open = resolve;
    });
    this.dropping = new Promise((resolve) => {
      this.#began = resolve;
    });
  }

  release(): void {
    this.#open?.();
    this.#gate = undefined;
  }

  override async drop(ranges: readonly RingRange[], stop?: () => boolean): Promise<number> {
    this.#began?.();
    await this.#gate;
    return super.drop(ranges, stop);
  }
}

const target = { bin: "alice", epoch: 0n, requireReady: false };
const grant = { epoch: 0n, clockFloor: 0n, ready: true, leaseMs: 0, filled: true };

async function backendWithData() {
  const engine = new SlowDropEngine();
  const node = new BackendNode({ engine, limits: DEFAULT_LIMITS });
  await node.write(target, { kind: "set", key: "k", value: "v" });
  return { engine, node };
}

describe("BackendNode.empty", () => {
  it("deletes everything and ends in a new incarnation, which alone a fill can make ready", async () => {
    const { node } = await backendWithData();
    const before = node.incarnation;
    const emptied = await node.empty(before);
    expect(emptied.bins).toBe(1);
    expect(emptied.incarnation).not.toBe(before);
    expect(node.incarnation).toBe(emptied.incarnation);
    expect(await node.get(target, "k")).toBeNull();
    expect((await node.heartbeat({ ...grant, incarnation: before })).ready).toBe(false);
    expect((await node.heartbeat({ ...grant, incarnation: emptied.incarnation })).ready).toBe(true);
  });

  it("is refused, naming both incarnations, when the backend is no longer the incarnation heard", async () => {
    const { node } = await backendWithData();
    await expect(node.empty("gone")).rejects.toThrow(
      `refused to empty: incarnation "gone" is not this backend's ("${node.incarnation}")`,
    );
    expect((await node.get(target, "k"))?.value).toBe("v");
  });

  it("is refused while the backend is ready", async () => {
    const { node } = await backendWithData();
    await node.heartbeat({ ...grant, incarnation: node.incarnation });
    await expect(node.empty(node.incarnation)).rejects.toThrow("refused to empty: this backend is ready");
    expect((await node.get(target, "k"))?.value).toBe("v");
  });

  it("takes no grant while it runs, and a second empty for the same incarnation waits and is refused", async () => {
    const { engine, node } = await backendWithData();
    const heard = node.incarnation;
    engine.hold();
    const first = node.empty(heard);
    const second = node.empty(heard);
    await engine.dropping;
    // A fill that read `heard` before the empty ended cannot make the backend ready, now or later.
    expect((await node.heartbeat({ ...grant, incarnation: heard })).ready).toBe(false);
    engine.release();
    const emptied = await first;
    await expect(second).rejects.toThrow(`incarnation "${heard}" is not this backend's`);
    expect((await node.heartbeat({ ...grant, incarnation: heard })).ready).toBe(false);
    expect(node.incarnation).toBe(emptied.incarnation);
  });
});
