// A backend names the keepers on the keeper ring as its kept membership holds
// them (Storage.Keepers): what a client whose cluster file names no running
// keeper asks. Members only, from what keepers sent, and after a restart from
// what it stored, before any keeper has called.
import { DEFAULT_LIMITS, type Member } from "@binring/core";
import { describe, expect, it } from "vitest";
import { BackendNode } from "../src/backend-node.js";
import { MemoryEngine } from "../src/memory-engine.js";

function record(address: string, kind: Member["kind"], status: Member["status"], slot = 0): Member {
  return { address, kind, slot, zone: "", status, version: 1n, by: "127.0.0.1:7600" };
}

const RECORDS = [
  record("127.0.0.1:7100", "backend", "member"),
  record("127.0.0.1:7600", "keeper", "removed", 0),
  record("127.0.0.1:7601", "keeper", "leaving", 1),
  record("127.0.0.1:7650", "keeper", "member", 2),
];

describe("the keepers a backend keeps", () => {
  it("are the keeper records still on the ring, also after a restart before any keeper called", async () => {
    const engine = new MemoryEngine();
    const first = new BackendNode({ engine, limits: DEFAULT_LIMITS });
    expect(await first.membership.keepers()).toEqual([]);
    await first.heartbeat({
      epoch: 0n,
      clockFloor: 0n,
      leaseMs: 0,
      keeper: "127.0.0.1:7650",
      members: RECORDS,
    });
    expect(await first.membership.keepers()).toEqual(["127.0.0.1:7650"]);

    // The same store under a new process: nothing heard yet, the stored records answer.
    const restarted = new BackendNode({ engine, limits: DEFAULT_LIMITS });
    expect(await restarted.membership.keepers()).toEqual(["127.0.0.1:7650"]);
  });
});
