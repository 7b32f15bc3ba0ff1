// What every part of a keeper reads: who it is, its settings and ports, the
// rings, its peers, the shared view, each backend's health, and its slice.
// Only Keeper (keeper.ts) changes the slice; each part owns the rest of its
// own state.
import { randomUUID } from "node:crypto";
import { bigintToWire, type HashRing, type HeartbeatRequest, wireToBigint } from "@binring/core";
import type { Logger } from "pino";
import type { BackendHealth } from "./backend-health.js";
import { type CopyProgress, copyTask } from "./copier.js";
import { IntentLog, type IntentStore, KEEPER_LOG_BIN } from "./intent-log.js";
import type { KeeperClock } from "./keeper-clock.js";
import type { KeeperTiming } from "./keeper-options.js";
import type { KeeperPeers } from "./keeper-peers.js";
import type { KeeperPorts } from "./keeper-ports.js";
import type { KeeperRing } from "./keeper-ring.js";
import { OwnershipTerms } from "./ownership-terms.js";
import type { CopyTask } from "./repair-plan.js";
import type { SharedView } from "./shared-view.js";

/** How long one read or append of the intent log may take on one backend. */
const LOG_TIMEOUT_MS = 2000;

export interface CopyRun {
  progress: CopyProgress;
  /** Checked between batches: true stops the copy (this keeper no longer owns the work). */
  stop(): boolean;
}

export class KeeperState {
  /** The backends this keeper owns now; recomputed on every round and beat. */
  slice: ReadonlySet<string> = new Set();
  stopped = false;
  /** Random per process start: peers tell a restart by it. */
  readonly incarnation = randomUUID();
  /** The commit point, kept on the backends themselves. */
  readonly intents: IntentStore;
  /** This keeper's claims on the backends of its slice. */
  readonly terms: OwnershipTerms;

  constructor(
    /** This keeper's address: its entry in the cluster file. */
    readonly self: string,
    readonly name: string,
    readonly timing: KeeperTiming,
    readonly logger: Logger,
    readonly clock: KeeperClock,
    readonly ports: KeeperPorts,
    readonly ring: HashRing,
    readonly keeperRing: KeeperRing,
    readonly peers: KeeperPeers,
    readonly view: SharedView,
    /** Every backend of the cluster, in cluster-file order. */
    readonly backends: readonly string[],
    readonly health: ReadonlyMap<string, BackendHealth>,
  ) {
    this.intents = new IntentLog((address) => ports.backend(address), LOG_TIMEOUT_MS, logger);
    this.terms = new OwnershipTerms(view.stamp);
  }

  healthOf(address: string): BackendHealth {
    const health = this.health.get(address);
    if (!health) throw new Error(`${address} is not a backend of this cluster`);
    return health;
  }

  /** Backends in placement: every one the view does not show dead. */
  liveSet(): Set<string> {
    return new Set(this.backends.filter((address) => this.view.get(address)?.state !== "dead"));
  }

  liveSlice(): string[] {
    const live = this.liveSet();
    return [...this.slice].filter((address) => live.has(address));
  }

  /** Backends that answered the last probe: where the log is read from. */
  answering(): string[] {
    return this.backends.filter((address) => this.healthOf(address).misses === 0);
  }

  /** Where intents are recorded: the log bin's replicas among the backends that answer now. */
  logTargets(): string[] {
    const live = this.liveSet();
    return this.ring.replicasFor(KEEPER_LOG_BIN, (id) => live.has(id) && this.healthOf(id).misses === 0);
  }

  /**
   * A heartbeat to a backend, carrying this keeper's epoch, name, and its claim
   * if it owns the backend. The backend's answer says which keepers it heard
   * lately: a peer this keeper cannot reach but a backend hears is alive
   * (keeper-peers.ts).
   */
  async heartbeat(address: string, request: HeartbeatRequest, timeoutMs = this.timing.probeTimeoutMs) {
    const sentAt = this.clock.now();
    const ownerTerm = this.ownerTermFor(address);
    const reply = await this.ports.backend(address).heartbeat(
      {
        epoch: bigintToWire(this.view.epoch),
        keeper: this.self,
        ownerTerm: bigintToWire(ownerTerm),
        ...request,
      },
      timeoutMs,
    );
    this.terms.reported(address, wireToBigint(reply.ownerTerm));
    for (const sighting of reply.keepers) {
      // Heard at least ageMs before the backend answered, which was after sentAt.
      this.peers.sighted(sighting.keeper, sentAt - Number(sighting.ageMs));
    }
    return reply;
  }

  /** This keeper's term as `address`'s owner, 0 when it is not in the slice. */
  ownerTermFor(address: string): bigint {
    return this.terms.termFor(address, this.slice.has(address));
  }

  /** Copies one task under the current epoch; resolves true when every source was copied completely. */
  copy(task: CopyTask, run: CopyRun): Promise<boolean> {
    return copyTask(task, {
      channel: (address) => this.ports.backend(address),
      epoch: () => this.view.epoch,
      batchSize: this.timing.copyBatchSize,
      logger: this.logger,
      progress: run.progress,
      stop: run.stop,
    });
  }
}
