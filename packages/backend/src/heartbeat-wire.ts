// A keeper's heartbeat on the wire and as a BackendNode takes it: one
// translation for the gRPC service and for in-process keepers in tests.
import {
  bigintToWire,
  type HeartbeatReply__Output,
  type HeartbeatRequest,
  type MemberRecord__Output,
  membersFromWire,
  memberToWire,
  wireToBigint,
} from "@binring/core";
import type { BackendState, HeartbeatCommand } from "./backend-calls.js";

export function heartbeatCommandFromWire(request: HeartbeatRequest): HeartbeatCommand {
  return {
    epoch: wireToBigint(String(request.epoch ?? 0)),
    clockFloor: wireToBigint(String(request.clockFloor ?? 0)),
    ready:
      request.readiness === "READINESS_READY"
        ? true
        : request.readiness === "READINESS_NOT_READY"
          ? false
          : undefined,
    leaseMs: Number(wireToBigint(String(request.leaseMs ?? 0))),
    incarnation: request.incarnation || undefined,
    filled: request.filled ?? false,
    keeper: request.keeper || undefined,
    ownerTerm: wireToBigint(String(request.ownerTerm ?? 0)),
    membersDigest: request.membersDigest || undefined,
    members: membersFromWire("members", (request.members ?? []) as MemberRecord__Output[]),
    replaceMembers: request.replaceMembers ?? false,
    member: request.member || undefined,
  };
}

export function heartbeatReplyToWire(state: BackendState): HeartbeatReply__Output {
  return {
    incarnation: state.incarnation,
    ready: state.ready,
    epoch: bigintToWire(state.epoch),
    clock: bigintToWire(state.clock),
    keys: String(state.keys),
    lists: String(state.lists),
    bins: String(state.bins),
    storeOk: state.storeOk,
    needsFill: state.needsFill,
    retired: state.retired,
    keepers: state.keepers.map((sighting) => ({ keeper: sighting.keeper, ageMs: String(sighting.ageMs) })),
    owner: state.owner?.keeper ?? "",
    ownerTerm: bigintToWire(state.owner?.term ?? 0n),
    membersDigest: state.membersDigest,
    members: state.members.map((record) => memberToWire(record) as MemberRecord__Output),
  };
}
