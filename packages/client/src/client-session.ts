// What every read and write of one BinClient shares: where a bin's replicas
// are (the ring, less the backends the view shows dead or this client found
// unreachable), the view's epoch that fences its calls, the largest clock it
// has seen, its writer id and sequence numbers, and how a failed call to a
// replica updates all that.
import {
  bigintToWire,
  type HashRing,
  newWriterId,
  REPLICAS,
  StaleEpochError,
  type Target,
} from "@binring/core";
import { NO_METRICS, type OperationObserver } from "./client-metrics.js";
import { classifyFailure, reportsRefusedConnection } from "./failure-kind.js";
import type { Reachability } from "./reachability.js";
import type { ReplicaTransport } from "./replica-transport.js";
import type { Sabotage } from "./sabotage.js";
import { retryPauseMs, systemTime, type WallTime } from "./wall-time.js";

/** Placement of one bin: primary first. */
export interface Placement {
  point: number;
  /** Where writes go: the live replicas, primary first. */
  replicas: string[];
  /**
   * Where reads may go: the replicas that held the bin before any death whose
   * repair is still running. A stand-in still receiving a dead replica's
   * entries may lack acknowledged ones; so may a backend standing in for one
   * this client alone found unreachable, which no keeper repairs for.
   */
  readable: string[];
}

/** What the paths need of the keepers' cluster view (cluster-view.ts). */
export interface ViewSource {
  /** The epoch of the view this client acts on (0: no view). */
  readonly epoch: bigint;
  /** Whether keepers publish the view. Without them no backend is ever made ready (read-path.ts). */
  readonly hasKeepers: boolean;
  /**
   * A keeper answered: the ring and the view are the cluster's. Until then a
   * client with keepers places nothing (its cluster file may be out of date).
   */
  readonly hasView: boolean;
  isDead(address: string): boolean;
  /** Dead, and its bins not yet re-copied onto the backends standing in for it. */
  isRepairing(address: string): boolean;
  /**
   * Fetches a newer view if there is one; never rejects. `behind`: an epoch a
   * backend reported past this view's, so a newer view is known to exist.
   */
  refresh(behind?: bigint): Promise<void>;
}

export interface ClientSessionOptions {
  ring: HashRing;
  transport: ReplicaTransport;
  reachability: Reachability;
  view: ViewSource;
  /** Deadline of one operation, retries included. */
  callTimeoutMs: number;
  /** How long the transport waits for one call's answer: a write's coordinator must answer within it. @default 2000 */
  attemptTimeoutMs?: number;
  /** TEST ONLY (sabotage.ts). @default undefined */
  sabotage?: Sabotage;
  /** @default systemTime */
  time?: WallTime;
  /** @default a new random writer id */
  writer?: string;
  /** Where operations and replica failures are reported (client-metrics.ts). @default NO_METRICS */
  observer?: OperationObserver;
}

export class ClientSession {
  /** The ring of the current membership: replaced when the keepers' view lists other members. */
  ring: HashRing;
  readonly transport: ReplicaTransport;
  readonly reachability: Reachability;
  readonly view: ViewSource;
  readonly callTimeoutMs: number;
  readonly attemptTimeoutMs: number;
  readonly sabotage: Sabotage | undefined;
  readonly time: WallTime;
  readonly writer: string;
  readonly observer: OperationObserver;
  #seq = 0;
  /** Largest clock this client has seen; stamps never go below it. */
  #clockSeen = 0n;

  constructor(options: ClientSessionOptions) {
    this.ring = options.ring;
    this.transport = options.transport;
    this.reachability = options.reachability;
    this.view = options.view;
    this.callTimeoutMs = options.callTimeoutMs;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? 2000;
    this.sabotage = options.sabotage;
    this.time = options.time ?? systemTime;
    this.writer = options.writer ?? newWriterId();
    this.observer = options.observer ?? NO_METRICS;
  }

  /**
   * The bin's replicas among the backends that are neither dead in the view
   * nor unreachable, primary first; and those of them a read may use.
   */
  placement(point: number): Placement {
    if (this.view.hasKeepers && !this.view.hasView) return { point, replicas: [], readable: [] };
    const isLive = (id: string) => !this.view.isDead(id) && !this.reachability.isDown(id);
    const replicas = this.ring.replicasAt(point, isLive, REPLICAS);
    const holders = new Set(
      this.ring.replicasAt(point, (id) => !this.view.isDead(id) || this.view.isRepairing(id), REPLICAS),
    );
    return { point, replicas, readable: replicas.filter((id) => holders.has(id)) };
  }

  /** A call's target, fenced by the current view's epoch: build one per attempt. */
  target(bin: string, requireReady: boolean): Target {
    return { bin, epoch: bigintToWire(this.view.epoch), requireReady };
  }

  /**
   * Between two rounds of an operation: a pause that grows with the rounds,
   * while a newer view is fetched. A round refused only because a backend
   * knew a newer epoch goes again as soon as the view has that epoch: the
   * refusal says nothing of load, and keepers mint several epochs while they
   * converge on one change, so pausing on each stalled every call of a busy
   * client for 10 + 20 + 40 + 80 ms. Only a view newer than the refused
   * call's goes at once, so a backend refusing every call cannot spin it.
   * `roundError`: the failure that ended this round, if a call was made.
   */
  async pauseBeforeRound(attempt: number, roundError: unknown): Promise<void> {
    if (roundError instanceof StaleEpochError) {
      await this.view.refresh(roundError.currentEpoch);
      const { epoch } = this.view;
      if (epoch >= roundError.currentEpoch && epoch > roundError.callerEpoch) return;
    }
    await Promise.all([this.time.sleep(retryPauseMs(attempt)), this.view.refresh()]);
  }

  nextSeq(): number {
    this.#seq = (this.#seq + 1) >>> 0;
    return this.#seq;
  }

  get clockSeen(): bigint {
    return this.#clockSeen;
  }

  observeClock(clock: bigint): void {
    if (clock > this.#clockSeen) this.#clockSeen = clock;
  }

  /**
   * Acts on a failed call: a fatal one is rethrown; a replica that is gone
   * leaves this client's placement, so writes skip it. A refused connection
   * counts as gone only if a fresh connection attempt is refused too (a
   * channel in reconnect backoff repeats its last error): skipping a live
   * replica would let a write be acknowledged without it.
   */
  async noteFailure(address: string, error: unknown): Promise<void> {
    const kind = classifyFailure(error);
    this.observer.replicaFailure(kind);
    if (kind === "fatal") throw error;
    if (
      kind === "gone" &&
      (!reportsRefusedConnection(error) || (await this.transport.refusesConnections(address)))
    ) {
      this.reachability.markDown(address, (error as Error).message);
    }
    // A newer view may drop a dead replica or reveal a newer epoch: fetch it (rate-limited,
    // unless the backend named a newer epoch than this view's).
    if (kind !== "not-ready")
      void this.view.refresh(error instanceof StaleEpochError ? error.currentEpoch : 0n);
  }
}
