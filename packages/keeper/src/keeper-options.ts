// What a keeper is made with: the cluster it starts from, how it reaches it,
// and its timing and sizing, with safe production defaults; tests shorten them.
import { InvalidArgumentError, MAX_SCAN_BATCH, MAX_TIMER_MS, type TlsFiles } from "@binring/core";
import type { Logger } from "pino";
import type { KeeperClock } from "./keeper-clock.js";
import type { KeeperPorts } from "./keeper-ports.js";

export interface KeeperTiming {
  /** How often each backend is probed. @default 1000 */
  heartbeatIntervalMs: number;
  /** A probe that takes longer counts as a miss; at most half the interval, so probes never overlap. @default 500 */
  probeTimeoutMs: number;
  /** Consecutive misses before a backend may be declared dead. @default 3 */
  missesToDead: number;
  /**
   * How long a grant of readiness lasts on the backend. A backend is declared
   * dead only after its lease has lapsed, so a paused backend that resumes
   * cannot serve reads that miss writes. Must be below missesToDead × interval.
   * @default 2500
   */
  leaseMs: number;
  /** How often clocks are read and raised to their maximum. @default 500 */
  clockSyncIntervalMs: number;
  /** Entries per Scan message and per Apply call while copying. @default 2000 */
  copyBatchSize: number;
  /**
   * Bytes per second a keeper's rebalancing copies apply to their targets,
   * counted as the entries are encoded (bins, keys, values, and about 40
   * bytes of stamp, kind and framing per entry): fills, and copies off a
   * decommissioned backend; never repairs after a death
   * (rebalance-throttle.ts). It is the rate `binring status` shows a move
   * at. Each source is asked to read no faster than its task's share of it
   * (copier.ts `sourceRate`; two tasks run at once): a stretch read from its
   * first holder alone is read at that share, one read from every live holder
   * at that share from each. At the default, 100k keys
   * land on an added backend in under 20 s (bench/results/rebalance.md).
   * @default 524288 (512 KiB/s)
   */
  rebalanceBytesPerSecond: number;
}

export const DEFAULT_KEEPER_TIMING: Readonly<KeeperTiming> = Object.freeze({
  heartbeatIntervalMs: 1000,
  probeTimeoutMs: 500,
  missesToDead: 3,
  leaseMs: 2500,
  clockSyncIntervalMs: 500,
  copyBatchSize: 2000,
  rebalanceBytesPerSecond: 512 * 1024,
});

/** The settings waited out as time (timers, and the lease a backend counts down): each at most one timer. */
const TIMER_FIELDS = ["heartbeatIntervalMs", "probeTimeoutMs", "leaseMs", "clockSyncIntervalMs"] as const;

/** Fills defaults and rejects settings that would break the safety argument or could not take effect. */
export function parseKeeperTiming(partial: Partial<KeeperTiming> = {}): KeeperTiming {
  const timing = { ...DEFAULT_KEEPER_TIMING, ...partial };
  for (const [field, value] of Object.entries(timing)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new InvalidArgumentError(`${field} must be a positive integer, got ${String(value)}`);
    }
  }
  for (const field of TIMER_FIELDS) {
    if (timing[field] > MAX_TIMER_MS) {
      throw new InvalidArgumentError(
        `${field} must be at most ${MAX_TIMER_MS} ms (the longest a timer waits), got ${timing[field]}`,
      );
    }
  }
  if (timing.copyBatchSize > MAX_SCAN_BATCH) {
    throw new InvalidArgumentError(
      `copyBatchSize must be at most ${MAX_SCAN_BATCH} (entries a backend sends in one Scan message), got ${timing.copyBatchSize}`,
    );
  }
  if (timing.leaseMs >= timing.missesToDead * timing.heartbeatIntervalMs) {
    throw new InvalidArgumentError(
      `leaseMs (${timing.leaseMs}) must be below missesToDead × heartbeatIntervalMs (${timing.missesToDead * timing.heartbeatIntervalMs}): a backend must not still be ready when it is declared dead`,
    );
  }
  if (timing.probeTimeoutMs > timing.heartbeatIntervalMs / 2) {
    throw new InvalidArgumentError(
      `probeTimeoutMs (${timing.probeTimeoutMs}) must be at most half of heartbeatIntervalMs (${timing.heartbeatIntervalMs}), so a probe ends before the next one`,
    );
  }
  return timing;
}

export interface KeeperOptions {
  /**
   * The backends of the cluster file (host:port): the membership of a fresh
   * cluster. Afterwards the recorded membership rules (membership-changes.ts).
   */
  backends: string[];
  /** Zone of each of those backends, as in the cluster file: placement must match the clients'. @default {} */
  zones?: Record<string, string>;
  /**
   * The keepers of the cluster file (host:port): the keeper ring of a fresh
   * cluster, as `backends` is its bin ring. @default [name]
   */
  keepers?: string[];
  /** This keeper's position in `keepers`. @default 0 */
  index?: number;
  /**
   * This keeper's address when it is not one of `keepers`: a keeper to be
   * added at runtime. Until it is recorded as a member it acts on nothing.
   */
  address?: string;
  /** This keeper's name in logs and status. @default "keeper" */
  name?: string;
  timing?: Partial<KeeperTiming>;
  /** @default a silent logger */
  logger?: Logger;
  /** How it reaches backends and peers. @default over gRPC */
  ports?: KeeperPorts;
  /** The keeper's certificate, presented on every call to backends and peers. @default plaintext */
  tls?: TlsFiles;
  /** @default the system clock */
  clock?: KeeperClock;
}
