// What the keepers say about the cluster, read over gRPC Keeper.Status from
// every keeper that answers: each backend's state and the repairs pending.

import { setTimeout as sleep } from "node:timers/promises";
import { fetchKeeperStatus } from "@binring/client";
import type { TlsFiles } from "@binring/core";

/** What merging reads of a keeper's report (@binring/client KeeperStatus). */
interface HealthReport {
  backends: readonly { address: string; state: string }[];
  repairs: readonly unknown[];
  /** Off the keeper ring: it probes nothing, so what it reports is stale. */
  offRing?: boolean;
}

/** The keepers' reports merged: a backend counts as ready only if every keeper that reports it says so. */
export interface ClusterHealth {
  /** Keepers on the keeper ring that answered (one off it reports nothing it keeps current). */
  keepers: string[];
  /** Keepers that answered and know every backend's state (none "unknown"): they have the cluster's view. */
  caughtUp: string[];
  /** address -> the states the answering keepers report for it. */
  states: Map<string, string[]>;
  /** Repairs and fills queued or running, over all answering keepers. */
  repairsPending: number;
}

/** A chaos run polls often: a keeper that does not answer within this counts as down for the poll. */
const STATUS_TIMEOUT_MS = 2000;

export async function readClusterHealth(keepers: readonly string[], tls?: TlsFiles): Promise<ClusterHealth> {
  const replies = await Promise.all(
    keepers.map((address) => fetchKeeperStatus(address, STATUS_TIMEOUT_MS, tls).catch(() => undefined)),
  );
  return mergeKeeperReports(keepers, replies);
}

/** The reports of `keepers`, in the same order; undefined where a keeper did not answer. */
export function mergeKeeperReports(
  keepers: readonly string[],
  replies: readonly (HealthReport | undefined)[],
): ClusterHealth {
  const health: ClusterHealth = { keepers: [], caughtUp: [], states: new Map(), repairsPending: 0 };
  for (const [i, reply] of replies.entries()) {
    if (!reply || reply.offRing) continue;
    health.keepers.push(keepers[i]!);
    if (reply.backends.every(({ state }) => state !== "unknown")) health.caughtUp.push(keepers[i]!);
    health.repairsPending += reply.repairs.length;
    for (const { address, state } of reply.backends) {
      health.states.set(address, [...(health.states.get(address) ?? []), state]);
    }
  }
  return health;
}

export function isReady(health: ClusterHealth, address: string): boolean {
  const states = health.states.get(address) ?? [];
  return states.length > 0 && states.every((state) => state === "ready");
}

/**
 * Settled: some keeper answered, no repair is pending, every backend is
 * ready except those in `down`, which keepers have declared dead (so their
 * repair was queued, and by the first condition has finished).
 */
export function isSettled(
  health: ClusterHealth,
  backends: readonly string[],
  down: ReadonlySet<string>,
): boolean {
  if (health.keepers.length === 0 || health.repairsPending > 0) return false;
  return backends.every((address) => {
    const states = health.states.get(address) ?? [];
    if (states.length === 0) return false;
    return down.has(address)
      ? states.every((state) => state === "dead")
      : states.every((state) => state === "ready");
  });
}

export interface SettleWait {
  keepers: readonly string[];
  tls?: TlsFiles;
  /** The cluster file's backends: waited on only while no keeper lists any. */
  fileBackends: readonly string[];
  timeoutMs: number;
  pollMs: number;
  /** Named in the timeout's error. */
  what: string;
  /** Called before each read: a crashed process fails the wait at once. */
  beforeEachRead(): void;
  read(health: ClusterHealth): void;
}

/**
 * Polls the keepers until the cluster is settled: every backend they list
 * (backends join and leave while the cluster runs) ready, no repair pending.
 * Fails after the timeout naming each backend's states.
 */
export async function waitUntilSettled(wait: SettleWait): Promise<void> {
  if (wait.keepers.length === 0) return;
  const deadline = performance.now() + wait.timeoutMs;
  for (;;) {
    wait.beforeEachRead();
    const health = await readClusterHealth(wait.keepers, wait.tls);
    wait.read(health);
    const backends = health.states.size > 0 ? [...health.states.keys()] : wait.fileBackends;
    if (isSettled(health, backends, new Set())) return;
    if (performance.now() > deadline) {
      const states = backends.map((address) => `${address} ${health.states.get(address)?.join("/") ?? "?"}`);
      throw new Error(
        `timed out after ${wait.timeoutMs} ms waiting for ${wait.what}: ${states.join(", ")}; repairs pending ${health.repairsPending}; keepers answering ${health.keepers.length}/${wait.keepers.length}`,
      );
    }
    await sleep(wait.pollMs);
  }
}
