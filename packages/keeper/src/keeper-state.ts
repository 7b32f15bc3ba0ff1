// What every part of a keeper reads: who it is, its settings and ports, the
// rings, its peers, the shared view, each backend's health, and its slice.
// Only Keeper (keeper.ts) changes the slice; each part owns the rest of its
// own state.
import { randomUUID } from "node:crypto";
import {
  bigintToWire,
  HashRing,
  type HeartbeatRequest,
  type MemberRecord__Output,
  membersFromWire,
  memberToWire,
  ringMembers,
  wireToBigint,
} from "@binring/core";
import type { Logger } from "pino";
import { BackendHealth } from "./backend-health.js";
import { type CopyProgress, copyTask } from "./copier.js";
import { IntentLog, type IntentStore, KEEPER_LOG_BIN } from "./intent-log.js";
import type { KeeperClock } from "./keeper-clock.js";
import type { KeeperTiming } from "./keeper-options.js";
import type { KeeperPeers } from "./keeper-peers.js";
import type { KeeperPorts } from "./keeper-ports.js";
import { KeeperRing, MAX_KEEPERS } from "./keeper-ring.js";
import { OwnershipTerms } from "./ownership-terms.js";
import { RebalanceThrottle } from "./rebalance-throttle.js";
import type { CopyTask } from "./repair-plan.js";
import type { SharedView } from "./shared-view.js";

/** How long one read or append of the intent log may take on one backend. */
const LOG_TIMEOUT_MS = 2000;

export interface CopyRun {
  progress: CopyProgress;
  /** Checked between batches: true stops the copy (this keeper no longer owns the work). */
  stop(): boolean;
  /** A rebalancing copy (a fill, a decommission), paced to the keeper's rebalance rate; a repair after a death is not. */
  rebalance: boolean;
  /** Tasks of this copy that run at once: a rebalancing one's sources share the rate between them. */
  tasksAtOnce: number;
}

export class KeeperState {
  #slice: ReadonlySet<string> = new Set();
  stopped = false;
  /** Random per process start: peers tell a restart by it. */
  readonly incarnation = randomUUID();
  /** The commit point, kept on the backends themselves. */
  readonly intents: IntentStore;
  /** This keeper's claims on the backends of its slice. */
  readonly terms: OwnershipTerms;
  /** The membership digest each backend last reported: records are sent where it differs from ours. */
  readonly #keptDigests = new Map<string, string>();
  /** The membership digest the ring, backend list and health table were built for. */
  #builtFor = "";
  #backends: string[] = [];
  #ring: HashRing | undefined;
  #keeperRing: KeeperRing | undefined;
  readonly #peers: KeeperPeers;
  /** This keeper's own record: member or leaving acts; none or removed waits to be added. */
  #selfStatus: "member" | "leaving" | "off-ring" = "off-ring";
  /** When this keeper first saw itself leaving (ms); undefined while it is not. */
  #leavingSince: number | undefined;
  readonly #health = new Map<string, BackendHealth>();
  readonly #throttle: RebalanceThrottle;

  constructor(
    /** This keeper's address: its entry in the cluster file. */
    readonly self: string,
    readonly name: string,
    readonly timing: KeeperTiming,
    readonly logger: Logger,
    readonly clock: KeeperClock,
    readonly ports: KeeperPorts,
    peers: KeeperPeers,
    readonly view: SharedView,
  ) {
    this.#peers = peers;
    this.intents = new IntentLog((address) => ports.backend(address), LOG_TIMEOUT_MS, logger);
    this.terms = new OwnershipTerms(() => view.stamp);
    this.#throttle = new RebalanceThrottle(clock, timing.rebalanceBytesPerSecond);
  }

  /** The backends this keeper owns now; recomputed on every round and beat, and never one off the ring. */
  get slice(): ReadonlySet<string> {
    this.#build();
    return this.#slice;
  }

  set slice(next: ReadonlySet<string>) {
    this.#slice = next;
  }

  /** The backends on the ring (members, and those leaving): cluster-file order, then as added. */
  get backends(): readonly string[] {
    this.#build();
    return this.#backends;
  }

  /** The ring of `backends`, with their zones. */
  get ring(): HashRing {
    this.#build();
    return this.#ring!;
  }

  /** Each backend's health as this keeper sees it: one per backend on the ring. */
  get health(): ReadonlyMap<string, BackendHealth> {
    this.#build();
    return this.#health;
  }

  /** The keeper ring: the keepers recorded as members (cluster-file order does not matter). */
  get keeperRing(): KeeperRing {
    this.#build();
    return this.#keeperRing!;
  }

  /** The other keepers on the keeper ring, and those leaving it (they still hand their slices over). */
  get peers(): KeeperPeers {
    this.#build();
    return this.#peers;
  }

  /**
   * This keeper on the keeper ring: a member, leaving it (it owns nothing and
   * hands its slice over), or off it (not added yet, or removed: it acts on
   * nothing and only learns the membership).
   */
  get selfStatus(): "member" | "leaving" | "off-ring" {
    this.#build();
    return this.#selfStatus;
  }

  /** When this keeper first saw itself leaving; undefined while it is not. */
  get leavingSince(): number | undefined {
    this.#build();
    return this.#leavingSince;
  }

  /** Being decommissioned: out of placement once its bins are copied elsewhere. */
  isLeaving(address: string): boolean {
    return this.view.member(address)?.status === "leaving";
  }

  /** Rebuilds what depends on the membership once it changed. */
  #build(): void {
    const digest = this.view.membersDigest;
    if (digest === this.#builtFor) return;
    const onRing = this.view.members().filter((record) => record.status !== "removed");
    this.#backends = onRing.map((record) => record.address);
    const zones = Object.fromEntries(
      onRing.filter((record) => record.zone !== "").map((record) => [record.address, record.zone]),
    );
    this.#ring = new HashRing(ringMembers(this.#backends, zones));
    const now = this.clock.now();
    for (const address of this.#backends) {
      if (!this.#health.has(address)) this.#health.set(address, new BackendHealth(address, this.logger, now));
    }
    for (const address of this.#health.keys()) {
      if (!this.#backends.includes(address)) this.#health.delete(address);
    }
    this.#slice = new Set([...this.#slice].filter((address) => this.#health.has(address)));
    this.#buildKeepers(now);
    if (this.#builtFor !== "") {
      this.logger.info(
        { backends: this.#backends, keepers: this.#keeperRing!.keepers },
        "membership changed",
      );
    }
    this.#builtFor = digest;
  }

  /** The keeper ring, the peers and this keeper's own place, from the keepers' records. */
  #buildKeepers(now: number): void {
    const keepers = this.view.keeperRecords();
    const onRing = keepers
      .filter((record) => record.status === "member")
      .map((record) => record.address)
      .sort();
    if (onRing.length > MAX_KEEPERS) {
      this.logger.warn(
        { keepers: onRing },
        `more than ${MAX_KEEPERS} keepers recorded: the first ${MAX_KEEPERS} form the ring`,
      );
    }
    this.#keeperRing = new KeeperRing(onRing.slice(0, MAX_KEEPERS));
    this.#peers.track(
      keepers.filter((record) => record.status !== "removed").map((record) => record.address),
      now,
    );
    const mine = this.view.keeper(this.self);
    const status = mine === undefined || mine.status === "removed" ? "off-ring" : mine.status;
    if (status !== this.#selfStatus && this.#builtFor !== "") {
      this.logger.info(
        { from: this.#selfStatus, to: status },
        "this keeper's place on the keeper ring changed",
      );
    }
    // Added: a beat from before may come from a peer that did not count it then (removed, re-added).
    if (this.#selfStatus === "off-ring" && status !== "off-ring") this.#peers.forgetBeats();
    this.#selfStatus = status;
    this.#leavingSince = status === "leaving" ? (this.#leavingSince ?? now) : undefined;
    if (mine) this.view.useSlot(mine.slot);
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
   * A heartbeat to a backend, carrying this keeper's epoch, name, the address
   * it calls the backend at, and its claim if it owns the backend. The backend's answer says which keepers it heard
   * lately: a peer this keeper cannot reach but a backend hears is alive
   * (keeper-peers.ts).
   */
  async heartbeat(address: string, request: HeartbeatRequest, timeoutMs = this.timing.probeTimeoutMs) {
    const sentAt = this.clock.now();
    const ownerTerm = this.ownerTermFor(address);
    const digest = this.view.membersDigest;
    const reply = await this.ports.backend(address).heartbeat(
      {
        epoch: bigintToWire(this.view.epoch),
        keeper: this.self,
        ownerTerm: bigintToWire(ownerTerm),
        membersDigest: digest,
        members: this.#keptDigests.get(address) === digest ? [] : this.view.records().map(memberToWire),
        member: address,
        ...request,
      },
      timeoutMs,
    );
    this.terms.reported(address, wireToBigint(reply.ownerTerm));
    this.#keep(address, reply.membersDigest, reply.members);
    for (const sighting of reply.keepers) {
      // Heard at least ageMs before the backend answered, which was after sentAt.
      this.peers.sighted(sighting.keeper, sentAt - Number(sighting.ageMs));
    }
    return reply;
  }

  /**
   * What a keeper off the keeper ring sends a backend: epoch 0 and no claim,
   * so it moves nothing there, only to learn the membership it keeps (and
   * with it whether this keeper was added), and to pass on records it holds
   * (its own removal).
   */
  async learnMembership(address: string): Promise<void> {
    const digest = this.view.membersDigest;
    const reply = await this.ports.backend(address).heartbeat(
      {
        epoch: "0",
        keeper: this.self,
        membersDigest: digest,
        members: this.#keptDigests.get(address) === digest ? [] : this.view.records().map(memberToWire),
      },
      this.timing.probeTimeoutMs,
    );
    this.#keep(address, reply.membersDigest, reply.members);
  }

  /**
   * What a backend keeps of the membership: its digest, and its records when
   * they differ from ours (a keeper restarted from an old cluster file learns
   * the membership from them). Records that do not pass the checks are logged
   * and ignored.
   */
  #keep(address: string, digest: string, records: readonly MemberRecord__Output[]): void {
    this.#keptDigests.set(address, digest);
    if (records.length === 0) return;
    try {
      if (this.view.mergeMembers(membersFromWire("members", records))) {
        this.logger.info({ from: address }, "membership learned from a backend");
      }
    } catch (error) {
      this.logger.warn({ backend: address, err: (error as Error).message }, "membership records refused");
    }
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
      pace: run.rebalance ? (bytes) => this.#throttle.take(bytes) : undefined,
      readRate: run.rebalance ? this.timing.rebalanceBytesPerSecond / run.tasksAtOnce : undefined,
    });
  }
}
