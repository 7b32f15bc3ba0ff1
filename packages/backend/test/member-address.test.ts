// A backend is one member: keepers call it at its member address, and once it
// answers as one it refuses heartbeats calling it as another while the first
// is still a member (a host name and its IP listed as two members reach one
// process). The refusal changes nothing, the address survives a restart over
// the same store, and a removed address frees the backend for a new one.
import { AnotherMemberError, DEFAULT_LIMITS, InvalidArgumentError, type Member } from "@binring/core";
import { describe, expect, it } from "vitest";
import type { HeartbeatCommand } from "../src/backend-calls.js";
import { BackendNode } from "../src/backend-node.js";
import { MemoryEngine } from "../src/memory-engine.js";

const IP = "127.0.0.1:7100";
const NAME = "localhost:7100";

function record(address: string, status: Member["status"], version = 1n): Member {
  return { address, kind: "backend", slot: 0, zone: "", status, version, by: "127.0.0.1:7600" };
}

const RECORDS = [record(IP, "member"), record(NAME, "member"), record("127.0.0.1:7101", "member")];

function beat(member: string, extra: Partial<HeartbeatCommand> = {}): HeartbeatCommand {
  return { epoch: 5n, clockFloor: 0n, leaseMs: 0, keeper: "127.0.0.1:7600", member, ...extra };
}

describe("the member address of a backend", () => {
  it("is the first one it is called at; another is refused, naming both, and changes nothing", async () => {
    const node = new BackendNode({ engine: new MemoryEngine(), limits: DEFAULT_LIMITS });
    await node.heartbeat(beat(IP, { members: RECORDS }));
    const refusal = node.heartbeat(beat(NAME, { epoch: 9n, ready: true }));
    await expect(refusal).rejects.toBeInstanceOf(AnotherMemberError);
    await expect(refusal).rejects.toThrow(
      `${NAME} reaches the backend that is already the member ${IP}: one process on the ring twice would hold two copies of a bin`,
    );
    expect(node.epoch).toBe(5n);
    expect(node.ready).toBe(false);
    await expect(node.heartbeat(beat(IP))).resolves.toMatchObject({ storeOk: true });
  });

  it("is refused as a second one whose heartbeat brings the records that name the first (a fresh cluster)", async () => {
    const node = new BackendNode({ engine: new MemoryEngine(), limits: DEFAULT_LIMITS });
    await node.heartbeat(beat(IP));
    await expect(node.heartbeat(beat(NAME, { members: RECORDS }))).rejects.toBeInstanceOf(AnotherMemberError);
  });

  it("survives a restart over the same store", async () => {
    const engine = new MemoryEngine();
    await new BackendNode({ engine, limits: DEFAULT_LIMITS }).heartbeat(beat(IP, { members: RECORDS }));
    const restarted = new BackendNode({ engine, limits: DEFAULT_LIMITS });
    await expect(restarted.heartbeat(beat(NAME))).rejects.toBeInstanceOf(AnotherMemberError);
    await expect(restarted.heartbeat(beat(IP))).resolves.toMatchObject({ storeOk: true });
  });

  it("may change once the first address was removed from the ring", async () => {
    const node = new BackendNode({ engine: new MemoryEngine(), limits: DEFAULT_LIMITS });
    await node.heartbeat(beat(IP, { members: RECORDS }));
    await node.heartbeat(beat(IP, { members: [record(IP, "removed", 2n)] }));
    await expect(node.heartbeat(beat(NAME))).resolves.toMatchObject({ storeOk: true });
    await expect(node.heartbeat(beat(IP))).rejects.toThrow(
      `${IP} reaches the backend that is already the member ${NAME}`,
    );
  });

  it("reads records stored before backends kept their address", async () => {
    const engine = new MemoryEngine();
    await engine.saveMembership(JSON.stringify([{ ...record(IP, "member"), version: "1" }]));
    const node = new BackendNode({ engine, limits: DEFAULT_LIMITS });
    await node.heartbeat(beat(NAME));
    expect(await node.membership.answer("another digest")).toMatchObject([{ address: IP, status: "member" }]);
  });

  it("is taken anew when what the store holds is unreadable", async () => {
    const engine = new MemoryEngine();
    await engine.saveMembership("{not json");
    const node = new BackendNode({ engine, limits: DEFAULT_LIMITS });
    await expect(node.heartbeat(beat(NAME, { members: RECORDS }))).resolves.toMatchObject({ storeOk: true });
    expect(await node.membership.keepers()).toEqual([]);
  });

  it("must be an address", async () => {
    const node = new BackendNode({ engine: new MemoryEngine(), limits: DEFAULT_LIMITS });
    const refusal = node.heartbeat(beat("not an address"));
    await expect(refusal).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(refusal).rejects.toThrow('member must be "host:port", got "not an address"');
  });
});
