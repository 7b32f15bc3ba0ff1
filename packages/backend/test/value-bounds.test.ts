// Clocks, stamps and epochs a caller sends are bounded (core/value-bounds.ts,
// docs/HAZARDS.md 6 and 11): in-process, on the memory engine.
import {
  CLOCK_CEILING,
  ClockBehindError,
  DEFAULT_LIMITS,
  InvalidArgumentError,
  MAX_CLOCK_JUMP,
  StaleEpochError,
} from "@binring/core";
import { describe, expect, it } from "vitest";
import { BackendNode } from "../src/backend-node.js";
import { MemoryEngine } from "../src/memory-engine.js";

const target = (epoch = 0n) => ({ bin: "b", epoch, requireReady: false });
const heartbeat = (epoch: bigint, clockFloor = 0n) => ({ epoch, clockFloor, leaseMs: 0 });

function node(): BackendNode {
  return new BackendNode({ engine: new MemoryEngine(), limits: DEFAULT_LIMITS, ready: true });
}

describe("epochs", () => {
  it("a keeper's heartbeat moves the epoch; a data call is only compared against it", async () => {
    const backend = node();
    await backend.heartbeat(heartbeat(100n));
    expect(backend.epoch).toBe(100n);
    await expect(backend.get(target(99n), "k")).rejects.toBeInstanceOf(StaleEpochError);
    await backend.get(target(5000n), "k");
    await backend.write(target(5000n), { kind: "set", key: "k", value: "v" });
    expect(backend.epoch).toBe(100n);
    await backend.get(target(100n), "k");
  });

  it("a keeper's view adopted by the backend (to place a set it withholds) fences older views too, never lowering it", async () => {
    const backend = node();
    await backend.heartbeat(heartbeat(100n));
    backend.adoptEpoch(120n);
    await expect(backend.get(target(110n), "k")).rejects.toBeInstanceOf(StaleEpochError);
    backend.adoptEpoch(90n);
    await backend.heartbeat(heartbeat(110n));
    expect(backend.epoch).toBe(120n);
  });

  it("refuses epochs at or past 2^62 from callers and keepers alike", async () => {
    const backend = node();
    await expect(backend.get(target(2n ** 64n - 1n), "k")).rejects.toThrow(
      /target.epoch .* outside the epoch range/,
    );
    await expect(backend.heartbeat(heartbeat(CLOCK_CEILING))).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(backend.apply([], CLOCK_CEILING)).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(backend.epoch).toBe(0n);
  });
});

describe("clocks", () => {
  it("a caller raises a clock at most 2^32 above where it stands", async () => {
    const backend = node();
    const start = await backend.tick(target(), 0n);
    await expect(backend.tick(target(), start + MAX_CLOCK_JUMP + 2n)).rejects.toThrow(
      /more than 2\^32 above/,
    );
    await expect(backend.tick(target(), start + MAX_CLOCK_JUMP + 2n)).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    // A stamp drawn elsewhere, or the raise before stamping: past the window this clock is taken to be behind.
    await expect(backend.raiseClock(target(), start + MAX_CLOCK_JUMP + 2n)).rejects.toBeInstanceOf(
      ClockBehindError,
    );
    const stamp = { clock: start + MAX_CLOCK_JUMP + 2n, writer: "0123456789abcdef", seq: 1 };
    await expect(backend.write(target(), { kind: "set", key: "k", value: "v", stamp })).rejects.toThrow(
      /clock behind: stamp.clock .* more than 2\^32 above/,
    );
    expect(await backend.tick(target(), start + MAX_CLOCK_JUMP)).toBe(start + MAX_CLOCK_JUMP);
  });

  it("repair copies and keeper floors may jump (a refilled backend starts low), but never to the ceiling", async () => {
    const backend = node();
    const far = 2n ** 50n;
    await backend.apply(
      [
        {
          bin: "b",
          key: "k",
          kind: "set",
          value: "v",
          stamp: { clock: far, writer: "0123456789abcdef", seq: 1 },
        },
      ],
      0n,
    );
    expect(backend.clock.peek()).toBe(far + 1n);
    await backend.heartbeat(heartbeat(0n, far * 2n));
    expect(backend.clock.peek()).toBe(far * 2n);
    await expect(backend.heartbeat(heartbeat(0n, CLOCK_CEILING))).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    const top = { clock: CLOCK_CEILING - 1n, writer: "0123456789abcdef", seq: 2 };
    await expect(
      backend.apply([{ bin: "b", key: "k", kind: "set", value: "w", stamp: top }], 0n),
    ).rejects.toThrow(/ceiling/);
  });

  it("a clock that cannot tick past the ceiling refuses the write instead of tying with a stored stamp", async () => {
    const backend = node();
    const nearTop = CLOCK_CEILING - 3n;
    const stamp = { clock: nearTop, writer: "ffffffffffffffff", seq: 1 };
    await backend.apply([{ bin: "b", key: "k", kind: "set", value: "old", stamp }], 0n);
    expect(await backend.tick(target(), 0n)).toBe(nearTop + 1n);
    await expect(backend.tick(target(), 0n)).rejects.toThrow(/ceiling/);
    await expect(backend.write(target(), { kind: "set", key: "k", value: "new" })).rejects.toThrow(/ceiling/);
    expect((await backend.get(target(), "k"))?.value).toBe("old");
  });
});
