// The keeper's status as operators read it (HTTP /status, the Status call,
// `binring status`): the keepers and their slices, each backend's state and
// last answer, and repairs running, queued, committing or being recovered.
import { type KeeperStatus, type RepairReport, repairPace } from "@binring/client";
import type { IntentCommit } from "./intent-commit.js";
import type { IntentRecovery } from "./intent-recovery.js";
import type { KeeperState } from "./keeper-state.js";
import type { RunningRepair } from "./repair-job.js";
import type { RepairRunner } from "./repair-runner.js";

export interface StatusSources {
  state: KeeperState;
  beatsSent: number;
  working: string[];
  runner: RepairRunner;
  commits: IntentCommit;
  recovery: IntentRecovery;
}

/** Typed as the SDK reads it, so the compiler holds the /status contract. */
export function statusReport({
  state,
  beatsSent,
  working,
  runner,
  commits,
  recovery,
}: StatusSources): KeeperStatus {
  const now = state.clock.now();
  const { peers } = state;
  // A dead keeper owns nothing, whatever its last beat claimed.
  const sliceOf = (keeper: string): string[] =>
    keeper === state.self
      ? [...state.slice]
      : peers.isLive(keeper, now)
        ? [...(peers.beatOf(keeper)?.slice ?? [])]
        : [];
  const running = runner.running;
  // The keeper ring and those leaving it (they may still hold a slice); self first when off the ring.
  const keepers = state.view
    .keeperRecords()
    .filter((record) => record.status !== "removed" || record.address === state.self)
    .map((record) => record.address);
  if (!keepers.includes(state.self)) keepers.unshift(state.self);
  return {
    keeper: state.name,
    address: state.self,
    epoch: state.view.epoch.toString(),
    beatsSent,
    keepers: keepers.map((address) => ({
      address,
      self: address === state.self,
      alive: peers.isLive(address, now),
      cutOff: peers.isCutOff(address, now),
      slice: sliceOf(address).sort(),
      working: address === state.self ? working : [...(peers.beatOf(address)?.working ?? [])],
      leaving: state.view.keeper(address)?.status === "leaving",
    })),
    backends: state.backends.map((address) => {
      const health = state.healthOf(address);
      const owner = keepers.find((keeper) => sliceOf(keeper).includes(address)) ?? null;
      return {
        address,
        // Its owner's own view of it (suspect shows there); the view as published elsewhere.
        state: state.slice.has(address) ? health.state : (state.view.get(address)?.state ?? "unknown"),
        owner,
        misses: health.misses,
        clock: health.last?.clock.toString() ?? null,
        keys: health.last?.keys ?? null,
        lists: health.last?.lists ?? null,
        bins: health.last?.bins ?? null,
        lastAnswerMsAgo: Math.round(now - health.lastAnswerAt),
        claimedBy: health.last?.claimedBy || null,
        zone: state.view.member(address)?.zone ?? "",
        leaving: state.isLeaving(address),
      };
    }),
    repairs: [
      ...(running ? [runningReport(running, now)] : []),
      ...runner.queued.map((job) => ({ id: job.id, kind: job.kind, backend: job.backend, state: "queued" })),
      ...commits.pending.map((job) => ({
        id: job.id,
        kind: job.kind,
        backend: job.backend,
        state: "committing",
      })),
      ...recovery.backends.map((backend) => ({ kind: "recovery", backend, state: "reading the keeper log" })),
    ],
    completedRepairs: [...runner.completed],
    offRing: state.selfStatus === "off-ring",
  };
}

function runningReport(running: RunningRepair, now: number): RepairReport {
  const { job, progress } = running;
  const runningMs = Math.round(now - running.startedAt);
  return {
    id: job.id,
    kind: job.kind,
    backend: job.backend,
    state: "running",
    recovered: job.recovered,
    runningMs,
    ...progress,
    ...repairPace({ runningMs, ...progress }),
  };
}
