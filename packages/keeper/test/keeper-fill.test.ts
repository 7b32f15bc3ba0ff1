// Emptying and filling a backend that comes back, in process on a fake clock:
// a fill interrupted by a death does not count, an empty that races a
// restart leaves no old entry behind, and a backend that restarted without
// dying is emptied before its fill too, and no fill copies before every live
// backend took the epoch that shows the filling backend back.
import { StaleEpochError } from "@binring/core";
import { afterEach, describe, expect, it } from "vitest";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** Writes one key into each of `count` bins; returns the bins `address` is a replica of. */
async function fillBins(w: KeeperWorld, address: string, count: number): Promise<string[]> {
  const held: string[] = [];
  for (let i = 0; i < count; i++) {
    const written = await w.write(`bin-${i}`, "k", `v${i}`);
    if (written.includes(address)) held.push(`bin-${i}`);
  }
  return held;
}

/** A ready cluster of 5 backends and one keeper, with a key in each of 40 bins; the first backend and the bins it holds. */
async function readyWorldWithData() {
  world = new KeeperWorld({ backends: 5, keepers: 1 });
  world.startAll();
  const w = world;
  await w.until(() => w.allReady(), 10_000, "a fresh cluster is ready");
  const address = w.addresses[0]!;
  return { w, address, backend: w.backend(address), held: await fillBins(w, address, 40) };
}

describe("fill", () => {
  it("a fill interrupted by the backend's death does not make it ready; the next one does, with every entry", async () => {
    const { w, address, backend, held } = await readyWorldWithData();
    expect(held.length).toBeGreaterThan(0);

    backend.fault = "down";
    await w.until(() => w.stateOf(address) === "dead", 15_000, "declared dead");
    backend.restart("empty");
    // It dies again as soon as the fill copies its first entries onto it.
    let interrupted = false;
    backend.onCall = (call, entries) => {
      if (
        call === "apply" &&
        !interrupted &&
        (entries as { bin: string }[]).some((e) => e.bin.startsWith("bin-"))
      ) {
        interrupted = true;
        backend.fault = "down";
      }
    };
    backend.fault = "none";
    await w.until(() => interrupted, 15_000, "the fill starts");
    await w.clock.advance(8000);
    expect(backend.node.ready).toBe(false);
    expect(w.stateOf(address)).not.toBe("ready");

    backend.onCall = undefined;
    backend.restart("kept");
    backend.fault = "none";
    await w.until(
      () => w.stateOf(address) === "ready" && backend.node.ready,
      30_000,
      "filled after it returned",
    );
    for (const bin of held) expect(await w.stored(address, bin, "k")).toBe(`v${bin.slice(4)}`);
  });

  it("an empty racing a restart still leaves no entry of the old store behind", async () => {
    const { w, address, backend, held } = await readyWorldWithData();
    // Held by this backend alone (never acknowledged): only its old store has it.
    await backend.node.apply(
      [
        {
          bin: held[0]!,
          key: "orphan",
          kind: "set",
          value: "old",
          stamp: { clock: 1n, writer: "0123456789abcdef", seq: 1 },
        },
      ],
      0n,
    );

    backend.fault = "down";
    await w.until(() => w.stateOf(address) === "dead", 15_000, "declared dead");
    // It answers again, and restarts (over the same store) just as the keeper empties it.
    let raced = 0;
    backend.onCall = (call) => {
      if (call === "empty" && raced++ === 0) backend.restart("kept");
    };
    backend.fault = "none";
    await w.until(
      () => w.stateOf(address) === "ready" && backend.node.ready,
      30_000,
      "emptied, filled, ready",
    );
    expect(raced).toBeGreaterThanOrEqual(2);
    expect(await w.stored(address, held[0]!, "orphan")).toBeUndefined();
    for (const bin of held) expect(await w.stored(address, bin, "k")).toBe(`v${bin.slice(4)}`);
  });

  it("a backend restarted on its old store within the detection time is emptied before it is filled", async () => {
    const { w, address, backend, held } = await readyWorldWithData();
    // An entry of a write attempt the cluster gave up on, on this backend alone: its write landed
    // elsewhere under another stamp, so this one must never be read (HAZARDS.md 20).
    const orphan = { clock: 1n, writer: "0123456789abcdef", seq: 1 };
    await backend.node.apply(
      [{ bin: held[0]!, key: "orphan", kind: "set", value: "old", stamp: orphan }],
      0n,
    );
    let emptied = 0;
    backend.onCall = (call) => {
      if (call === "empty") emptied++;
    };
    backend.restart("kept");
    await w.until(() => w.stateOf(address) === "ready" && backend.node.ready, 30_000, "filled again");
    expect(w.stateOf(address)).toBe("ready");
    expect(emptied).toBeGreaterThanOrEqual(1);
    expect(await w.stored(address, held[0]!, "orphan")).toBeUndefined();
    for (const bin of held) expect(await w.stored(address, bin, "k")).toBe(`v${bin.slice(4)}`);
  });

  it("a store restart part way through a fill sends it back to fill from the start", async () => {
    const { w, address, backend, held } = await readyWorldWithData();

    backend.restart("empty");
    // The store restarts empty again as soon as the fill has copied its first entries onto it.
    let restarted = false;
    backend.onCall = (call, entries) => {
      if (
        call !== "apply" ||
        restarted ||
        !(entries as { bin: string }[]).some((e) => e.bin.startsWith("bin-"))
      )
        return;
      restarted = true;
      queueMicrotask(() => backend.restart("empty"));
    };
    await w.until(() => restarted, 15_000, "the fill starts");
    await w.until(() => w.stateOf(address) === "ready" && backend.node.ready, 30_000, "filled again");
    for (const bin of held) expect(await w.stored(address, bin, "k")).toBe(`v${bin.slice(4)}`);
  });

  it("copies nothing until every live backend took the epoch that shows the backend back", async () => {
    const { w, address, backend, held } = await readyWorldWithData();
    const before = w.keeper(0).view().epoch;
    // A holder of the returning backend's bins that the fence cannot reach (its probes still
    // answer): a client that still skips the returning backend could write there under the old
    // view after the fill copied it, and that write would be missing from the backend made ready.
    const holder = w
      .keeper(0)
      .ring.replicasFor(held[0]!, () => true)
      .find((id) => id !== address)!;
    // The fence's heartbeat carries the epoch alone: no readiness (a probe) and no clock floor.
    const isFenceBeat = (call: string, request: unknown) => {
      const beat = request as { readiness?: string; clockFloor?: string };
      return call === "heartbeat" && beat.readiness === undefined && beat.clockFloor === undefined;
    };
    w.backend(holder).loses = isFenceBeat;
    backend.restart("kept");
    await w.until(() => w.stateOf(address) === "filling", 10_000, "seen back, filling");
    await w.clock.advance(8000);
    expect(w.stateOf(address)).toBe("filling");
    expect(backend.node.ready).toBe(false);

    w.backend(holder).loses = undefined;
    await w.until(() => w.stateOf(address) === "ready" && backend.node.ready, 30_000, "filled once fenced");
    const stale = {
      bin: held[0]!,
      key: "late",
      kind: "set" as const,
      value: "x",
      stamp: { clock: 1n, writer: "0123456789abcdef", seq: 2 },
    };
    await expect(w.backend(holder).node.apply([stale], before)).rejects.toBeInstanceOf(StaleEpochError);
    for (const bin of held) expect(await w.stored(address, bin, "k")).toBe(`v${bin.slice(4)}`);
  });
});
