// A keeper's control calls are fenced by its claim on the backend
// (ownership.ts, HAZARDS.md 23): once a larger term claims the backend, the
// former owner's grants, renewals, revokes and empties change nothing, while a
// standby's renewal still extends a running lease; a backend no keeper has
// claimed takes calls without a term; a term past the epoch range is refused
// with a message naming it.
import { DEFAULT_LIMITS, InvalidArgumentError } from "@binring/core";
import { describe, expect, it } from "vitest";
import type { HeartbeatCommand } from "../src/backend-calls.js";
import { BackendNode } from "../src/backend-node.js";
import { heartbeatCommandFromWire, heartbeatReplyToWire } from "../src/heartbeat-wire.js";
import { MemoryEngine } from "../src/memory-engine.js";

const FIRST = (1n << 24n) | 1n;
const SECOND = (2n << 24n) | 2n;

function node() {
  let now = 0;
  const backend = new BackendNode({ engine: new MemoryEngine(), limits: DEFAULT_LIMITS, now: () => now });
  const beat = (command: Partial<HeartbeatCommand>) =>
    backend.heartbeat({ epoch: 0n, clockFloor: 0n, leaseMs: 2500, ...command });
  return { backend, beat, advance: (ms: number) => (now += ms) };
}

describe("ownership of a backend", () => {
  it("passes to a larger term; the former owner's heartbeats then grant, renew and revoke nothing", async () => {
    const { backend, beat, advance } = node();
    await beat({ keeper: "k1", ownerTerm: FIRST, ready: true, filled: true });
    expect(backend.ready).toBe(true);

    const taken = await beat({ keeper: "k2", ownerTerm: SECOND });
    expect(taken.owner).toEqual({ keeper: "k2", term: SECOND });
    expect(heartbeatReplyToWire(taken)).toMatchObject({ owner: "k2", ownerTerm: String(SECOND) });

    await beat({ keeper: "k1", ownerTerm: FIRST, ready: false });
    expect(backend.ready).toBe(true);
    advance(2000);
    await beat({ keeper: "k1", ownerTerm: FIRST, ready: true });
    advance(1000);
    expect(backend.ready).toBe(false);
    await beat({ keeper: "k1", ownerTerm: FIRST, ready: true, filled: true });
    expect(backend.ready).toBe(false);
    expect((await beat({ keeper: "k1", ownerTerm: FIRST })).owner).toEqual({ keeper: "k2", term: SECOND });

    await beat({ keeper: "k2", ownerTerm: SECOND, ready: true, filled: true });
    expect(backend.ready).toBe(true);
    await beat({ keeper: "k2", ownerTerm: SECOND, ready: false });
    expect(backend.ready).toBe(false);
  });

  it("lets a standby renew a running lease, never revive, grant after a fill or revoke", async () => {
    const { backend, beat, advance } = node();
    await beat({ keeper: "k1", ownerTerm: FIRST, ready: true, filled: true });
    advance(2000);
    await beat({ keeper: "k2", ready: true });
    advance(2000);
    expect(backend.ready).toBe(true);
    await beat({ keeper: "k2", ready: false });
    expect(backend.ready).toBe(true);
    advance(600);
    expect(backend.ready).toBe(false);
    await beat({ keeper: "k2", ready: true, filled: true });
    expect(backend.ready).toBe(false);
  });

  it("refuses an empty under any term but the owner's, naming both", async () => {
    const { backend, beat } = node();
    await beat({ keeper: "k1", ownerTerm: FIRST });
    await beat({ keeper: "k2", ownerTerm: SECOND });
    for (const term of [FIRST, 0n, SECOND + 16n]) {
      await expect(backend.empty(backend.incarnation, term)).rejects.toThrow(
        `refused to empty: owner term ${term} is not this backend's (${SECOND}, keeper k2)`,
      );
    }
    expect((await backend.empty(backend.incarnation, SECOND)).bins).toBe(0);
  });

  it("takes grants, revokes and empties without a term while no keeper has claimed it", async () => {
    const { backend, beat } = node();
    await beat({ ready: true, filled: true });
    expect(backend.ready).toBe(true);
    await beat({ ready: false });
    expect(backend.ready).toBe(false);
    const emptied = await backend.empty(backend.incarnation);
    expect(emptied.incarnation).toBe(backend.incarnation);
  });

  it("refuses a term at or past 2^62, 2^64-1 included, naming it, and is claimed by nobody", async () => {
    const { backend, beat } = node();
    for (const term of [2n ** 62n, 2n ** 64n - 1n]) {
      const command = heartbeatCommandFromWire({ keeper: "k9", ownerTerm: String(term) });
      expect(command.ownerTerm).toBe(term);
      await expect(backend.heartbeat(command)).rejects.toThrow(InvalidArgumentError);
      await expect(backend.heartbeat(command)).rejects.toThrow(
        `ownerTerm ${term} is outside the epoch range 0 .. 2^62-1`,
      );
      await expect(backend.empty(backend.incarnation, term)).rejects.toThrow(`ownerTerm ${term}`);
    }
    expect((await beat({ keeper: "k1", ownerTerm: FIRST })).owner).toEqual({ keeper: "k1", term: FIRST });
  });

  it("is not claimed by a heartbeat refused for another field", async () => {
    const { beat } = node();
    await expect(beat({ keeper: "k".repeat(256), ownerTerm: FIRST })).rejects.toThrow(
      /keeper name of 256 bytes/,
    );
    await expect(beat({ keeper: "k1", ownerTerm: FIRST, clockFloor: 2n ** 62n })).rejects.toThrow(
      /clockFloor/,
    );
    expect((await beat({})).owner).toBeUndefined();
  });
});
