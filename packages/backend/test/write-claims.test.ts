// A retried write's claim (HAZARDS.md 20): the backend answers the stamp it
// holds for the write and fences it, so an entry of a lost attempt that
// arrives after the claim — a forward still queued, a copy a fill brings —
// never becomes a second entry of one write.
import { DEFAULT_LIMITS, type Entry, type Stamp, SupersededAttemptError } from "@binring/core";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { BackendNode } from "../src/backend-node.js";
import { MemoryEngine } from "../src/memory-engine.js";
import { FENCE_TTL_MS } from "../src/write-fences.js";

const WRITER = "00000000000000aa";
const target = { bin: "alice", epoch: 0n, requireReady: false };

function stamp(clock: bigint, seq = 1): Stamp {
  return { clock, writer: WRITER, seq };
}

function nodeOnMemory() {
  let now = 0;
  const logged: string[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => logged.push(line) });
  const node = new BackendNode({
    engine: new MemoryEngine(),
    limits: DEFAULT_LIMITS,
    now: () => now,
    logger,
  });
  return { node, logged, later: (ms: number) => (now += ms) };
}

function append(node: BackendNode, at: Stamp, claim?: string) {
  return node.write(target, { kind: "append", key: "l", value: "v", stamp: at, claim });
}

describe("a claim", () => {
  it("answers the largest stamp applied here for the write, or null", async () => {
    const { node } = nodeOnMemory();
    expect(await node.claim(target, WRITER, 1, "c1")).toBeNull();
    await append(node, stamp(5n), "c1");
    await append(node, stamp(9n), "c1");
    expect(await node.claim(target, WRITER, 1, "c2")).toEqual(stamp(9n));
    expect(await node.claim(target, WRITER, 2, "c3")).toBeNull();
  });

  it("refuses the write's entries sent by any other attempt after it, and takes the claim's own", async () => {
    const { node } = nodeOnMemory();
    await node.claim(target, WRITER, 1, "c1");
    await expect(append(node, stamp(5n))).rejects.toBeInstanceOf(SupersededAttemptError);
    await expect(append(node, stamp(5n), "c0")).rejects.toThrow(/under another claim took over/);
    await append(node, stamp(6n), "c1");
    // The stamp the claim settled on is taken without the claim too (a client resending it).
    await append(node, stamp(6n));
    expect(await node.listGet(target, "l")).toEqual(["v"]);
    // Another write of the same writer is not fenced.
    await append(node, stamp(7n, 2));
    expect(await node.listGet(target, "l")).toEqual(["v", "v"]);
  });

  it("keeps a copy of a lost attempt's entry (a fill) from landing, and lets the settled stamp's copy through", async () => {
    const { node, logged } = nodeOnMemory();
    await node.claim(target, WRITER, 1, "c1");
    await append(node, stamp(8n), "c1");
    const copy = (at: Stamp): Entry => ({ bin: "alice", key: "l", kind: "append", value: "v", stamp: at });
    await node.apply([copy(stamp(4n)), copy(stamp(8n)), copy(stamp(3n, 2))], 0n);
    expect(await node.listGet(target, "l")).toEqual(["v", "v"]);
    // The refused copy is logged: a fill that meets one is not silent about it.
    const warning = logged.map((line) => JSON.parse(line)).find((entry) => entry.refused !== undefined);
    expect(warning).toMatchObject({ refused: 1, first: [{ bin: "alice", key: "l" }] });
    expect(await node.claim(target, WRITER, 1, "c2")).toEqual(stamp(8n));
  });

  it("is forgotten when the store is emptied, so the fill brings back the stamp the write was acknowledged with", async () => {
    const { node } = nodeOnMemory();
    // Claimed here, then this backend was cut off and declared dead: the write went on and was
    // acknowledged on the other replicas at stamp 8, and the claim never settled here.
    await node.claim(target, WRITER, 1, "c1");
    await node.empty(node.incarnation);
    const copy: Entry = { bin: "alice", key: "l", kind: "append", value: "v", stamp: stamp(8n) };
    await node.apply([copy], 0n);
    expect(await node.listGet(target, "l")).toEqual(["v"]);
  });

  it("is replaced by a newer claim of the same write, whose entries alone it then takes", async () => {
    const { node } = nodeOnMemory();
    await node.claim(target, WRITER, 1, "c1");
    await node.claim(target, WRITER, 1, "c2");
    await expect(append(node, stamp(5n), "c1")).rejects.toBeInstanceOf(SupersededAttemptError);
    await append(node, stamp(5n), "c2");
    expect(await node.listGet(target, "l")).toEqual(["v"]);
  });

  it("lapses after FENCE_TTL_MS, past any write's deadline", async () => {
    const { node, later } = nodeOnMemory();
    await node.claim(target, WRITER, 1, "c1");
    later(FENCE_TTL_MS + 1);
    await append(node, stamp(5n));
    expect(await node.listGet(target, "l")).toEqual(["v"]);
  });

  it("names a bad claim id or writer", async () => {
    const { node } = nodeOnMemory();
    await expect(node.claim(target, WRITER, 1, "")).rejects.toThrow(
      /claim must be 1 to 64 characters, got 0/,
    );
    await expect(node.claim(target, "XYZ", 1, "c1")).rejects.toThrow(
      /writer must be 16 lowercase hex digits/,
    );
  });
});
