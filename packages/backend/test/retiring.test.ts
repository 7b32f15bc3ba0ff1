// A backend told that its own record is leaving (or removed) retires: it is not
// ready, answers `retired`, and takes no grant or renewal from anyone, however
// late one arrives, so the keeper decommissioning it may declare it dead at
// once instead of waiting for every lease on it to lapse. Only a record making
// it a member again ends that, and then only a grant after a fill readies it.
import { DEFAULT_LIMITS, type Member } from "@binring/core";
import { describe, expect, it } from "vitest";
import type { HeartbeatCommand } from "../src/backend-calls.js";
import { BackendNode } from "../src/backend-node.js";
import { MemoryEngine } from "../src/memory-engine.js";

const SELF = "127.0.0.1:7100";
const OTHER = "127.0.0.1:7101";

function record(address: string, status: Member["status"], version = 1n): Member {
  return { address, kind: "backend", slot: 0, zone: "", status, version, by: "127.0.0.1:7600" };
}

const MEMBERS = [record(SELF, "member"), record(OTHER, "member"), record("127.0.0.1:7102", "member")];

function beat(extra: Partial<HeartbeatCommand> = {}): HeartbeatCommand {
  return { epoch: 5n, clockFloor: 0n, leaseMs: 2500, keeper: "127.0.0.1:7600", member: SELF, ...extra };
}

const GRANT = { ready: true, filled: true } as const;
const RENEWAL = { ready: true } as const;

async function readyBackend(engine = new MemoryEngine()): Promise<BackendNode> {
  const node = new BackendNode({ engine, limits: DEFAULT_LIMITS, now: () => 0 });
  await node.heartbeat(beat({ members: MEMBERS, ...GRANT }));
  expect(node.ready).toBe(true);
  return node;
}

describe("a backend leaving the ring", () => {
  it("retires when a heartbeat brings its own record as leaving, and takes no grant or renewal after", async () => {
    const node = await readyBackend();
    const answer = await node.heartbeat(beat({ members: [record(SELF, "leaving", 2n)], ...RENEWAL }));
    expect(answer).toMatchObject({ ready: false, retired: true });
    for (const late of [GRANT, RENEWAL]) {
      await expect(node.heartbeat(beat(late))).resolves.toMatchObject({ ready: false, retired: true });
    }
    expect(node.readinessState).toBe("retired");
  });

  it("refuses a grant that comes in the same heartbeat as its leaving record", async () => {
    const node = await readyBackend();
    const answer = await node.heartbeat(beat({ members: [record(SELF, "removed", 2n)], ...GRANT }));
    expect(answer).toMatchObject({ ready: false, retired: true });
  });

  it("stays retired across a restart over the same store", async () => {
    const engine = new MemoryEngine();
    const node = await readyBackend(engine);
    await node.heartbeat(beat({ members: [record(SELF, "leaving", 2n)] }));
    const restarted = new BackendNode({ engine, limits: DEFAULT_LIMITS, now: () => 0 });
    await expect(restarted.heartbeat(beat(GRANT))).resolves.toMatchObject({ ready: false, retired: true });
  });

  it("is not retired by another backend leaving", async () => {
    const node = await readyBackend();
    const answer = await node.heartbeat(beat({ members: [record(OTHER, "leaving", 2n)], ...RENEWAL }));
    expect(answer).toMatchObject({ ready: true, retired: false });
  });

  it("once a member again, needs a fill: a renewal is refused, a grant after a fill readies it", async () => {
    const node = await readyBackend();
    await node.heartbeat(beat({ members: [record(SELF, "removed", 2n)] }));
    const readded = await node.heartbeat(beat({ members: [record(SELF, "member", 3n)], ...RENEWAL }));
    expect(readded).toMatchObject({ ready: false, retired: false, needsFill: true });
    await expect(node.heartbeat(beat(GRANT))).resolves.toMatchObject({ ready: true, retired: false });
  });
});
