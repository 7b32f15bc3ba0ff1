// Readiness leases on a fake clock. A renewal may reach a backend long after
// it was sent (the process was paused with heartbeats queued on its socket);
// by then its keeper may have declared the backend dead and acknowledged
// writes without it. So a plain renewal extends a running lease but never
// revives a lapsed one: only a grant after a fill does. (The soak found this:
// a backend paused past its lease served a stale read on resuming.)
import { DEFAULT_LIMITS } from "@binring/core";
import { describe, expect, it } from "vitest";
import { BackendNode } from "../src/backend-node.js";
import { MemoryEngine } from "../src/memory-engine.js";

const LEASE_MS = 2500;

function backend() {
  const clock = { now: 0 };
  const node = new BackendNode({ engine: new MemoryEngine(), limits: DEFAULT_LIMITS, now: () => clock.now });
  return { node, clock };
}

const renewal = { epoch: 0n, clockFloor: 0n, ready: true, leaseMs: LEASE_MS };

describe("readiness lease", () => {
  it("a renewal while the lease runs extends it", async () => {
    const { node, clock } = backend();
    await node.heartbeat({ ...renewal, filled: true });
    clock.now = 2000;
    await node.heartbeat(renewal);
    clock.now = 4000;
    expect(node.ready).toBe(true);
    clock.now = 4600;
    expect(node.ready).toBe(false);
  });

  it("a renewal arriving after the lease lapsed is refused; a grant after a fill is not", async () => {
    const { node, clock } = backend();
    await node.heartbeat({ ...renewal, filled: true });
    clock.now = 4000;
    expect((await node.heartbeat(renewal)).ready).toBe(false);
    expect(node.ready).toBe(false);
    expect((await node.heartbeat({ ...renewal, filled: true })).ready).toBe(true);
  });

  it("a backend that starts not ready is made ready by a grant after a fill only", async () => {
    const { node } = backend();
    expect((await node.heartbeat(renewal)).ready).toBe(false);
    expect((await node.heartbeat({ ...renewal, filled: true })).ready).toBe(true);
  });
});
