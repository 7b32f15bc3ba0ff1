// The keeper's report (Keeper.status(), also its HTTP /status JSON) as the
// Keeper.Status reply; @binring/client's keeperStatusFromWire reads it back
// into the same object.
import { HEALTH_TO_WIRE, type KeeperStatus, type RepairReport } from "@binring/client";
import type { StatusRepair, StatusReply } from "@binring/core";

function repairToWire(repair: RepairReport): StatusRepair {
  const running = repair.runningMs !== undefined;
  return {
    id: repair.id ?? "",
    kind: repair.kind,
    backend: repair.backend,
    state: repair.state,
    progress: running
      ? {
          recovered: repair.recovered ?? false,
          runningMs: repair.runningMs,
          entriesCopied: repair.entriesCopied ?? 0,
          bytesCopied: repair.bytesCopied ?? 0,
          tasksDone: repair.tasksDone ?? 0,
          tasksTotal: repair.tasksTotal ?? 0,
        }
      : null,
  };
}

export function statusToWire(status: KeeperStatus): StatusReply {
  return {
    keeper: status.keeper,
    address: status.address,
    epoch: status.epoch,
    beatsSent: status.beatsSent,
    keepers: status.keepers.map(({ address, self, alive, cutOff, slice, working, leaving }) => ({
      address,
      self,
      alive,
      cutOff,
      slice,
      working,
      leaving,
    })),
    backends: status.backends.map((b) => ({
      address: b.address,
      state: HEALTH_TO_WIRE[b.state],
      owner: b.owner ?? "",
      misses: b.misses,
      // The four come from one heartbeat answer: all present, or none yet.
      last:
        b.clock === null
          ? null
          : { clock: b.clock, keys: b.keys ?? 0, lists: b.lists ?? 0, bins: b.bins ?? 0 },
      lastAnswerMsAgo: b.lastAnswerMsAgo,
      claimedBy: b.claimedBy ?? "",
      zone: b.zone,
      leaving: b.leaving,
    })),
    repairs: status.repairs.map(repairToWire),
    completedRepairs: status.completedRepairs.map(({ id, kind, backend, entries, ms, recovered }) => ({
      id,
      kind,
      backend,
      entries,
      ms,
      recovered,
    })),
    offRing: status.offRing,
  };
}
