// A keeper: one of up to sixteen, each owning a slice of the backends (its
// stretch of the keeper ring, keeper-ring.ts). It probes every backend, but
// changes the state of, repairs and fills only the backends of its slice; it
// beats the other keepers every interval, merging their views into one
// (shared-view.ts) and taking over the slice of any keeper that falls silent,
// and handing it back when that keeper returns.
//
// This class only composes the parts and runs their loops:
//
//   heartbeat round ─▶ Prober ── decide ──▶ IntentCommit ── enqueue ──▶ RepairRunner
//        │               │  (lease renewals,    (record intent,            (fence, copy,
//        │               │   health events)      then publish)              grant, drop, done)
//        │               ▼                            ▲                        ▲
//        │          LeaseWitness ◀── answers ── PeerBeats ── merged ──▶ slice refresh ──▶ IntentRecovery
//        ▼                                            │                              (read the log first)
//   clock-sync round ─▶ ClockSync ◀── peer clocks ────┘
//
// Every state change that needs copying is committed first: the intent is
// recorded on the backends (intent-log.ts), then the state is published, then
// the work runs, then the intent is marked done. A keeper that gains backends
// reads the log and finishes their unfinished intents before any new work.
//
// Readiness leases. The owner renews the leases of its ready backends; every
// other keeper renews them too, for the incarnation the owner vouches for,
// while the view shows them ready and the owner does not withhold them
// (lease-witness.ts). An owner declares a backend dead only once no lease on
// it may run.
import type { KeeperStatus } from "@binring/client";
import { type HashRing, type KeeperBeat, type KeeperBeat__Output, seedMembers } from "@binring/core";
import { pino } from "pino";
import { ClockSync } from "./clock-sync.js";
import { type ClusterViewSnapshot, viewSnapshot } from "./cluster-view-snapshot.js";
import { grpcPorts } from "./grpc-ports.js";
import { IntentCommit } from "./intent-commit.js";
import { IntentRecovery } from "./intent-recovery.js";
import { systemClock } from "./keeper-clock.js";
import { KeeperMetrics } from "./keeper-metrics.js";
import { type KeeperOptions, type KeeperTiming, parseKeeperTiming } from "./keeper-options.js";
import { KeeperPeers } from "./keeper-peers.js";
import { type KeeperRing, MAX_KEEPERS } from "./keeper-ring.js";
import { KeeperRingChanges } from "./keeper-ring-changes.js";
import { KeeperState } from "./keeper-state.js";
import { LeaseWitness } from "./lease-witness.js";
import { MembershipChanges, type MembershipOutcome } from "./membership-changes.js";
import { PeerBeats } from "./peer-beats.js";
import { Prober } from "./prober.js";
import { without } from "./repair-job.js";
import { RepairRunner } from "./repair-runner.js";
import { SharedView } from "./shared-view.js";
import { statusReport } from "./status-report.js";

/** Every this many heartbeat rounds a keeper reads the log again for its whole slice (intent-recovery.ts). */
const LOG_SWEEP_ROUNDS = 10;

export class Keeper {
  readonly #state: KeeperState;
  readonly #witness: LeaseWitness;
  readonly #beats: PeerBeats;
  readonly #clocks: ClockSync;
  readonly #commits: IntentCommit;
  readonly #recovery: IntentRecovery;
  readonly #runner: RepairRunner;
  readonly #prober: Prober;
  readonly #membership: MembershipChanges;
  readonly #keeperRing: KeeperRingChanges;
  /** Its Prometheus metrics: one registry per keeper, served at /metrics. */
  readonly metrics: KeeperMetrics;
  readonly #stopTimers: (() => void)[] = [];
  #heartbeating = false;
  /** A round asked for while one ran (roundSoon): it runs as soon as that one ends. */
  #roundWanted = false;
  /** When the last heartbeat round started (ms); 0 before the first. */
  #lastRoundAt = 0;
  #rounds = 0;

  constructor(options: KeeperOptions) {
    const name = options.name ?? "keeper";
    const keepers = options.keepers ?? [name];
    const index = options.index ?? 0;
    const self = options.address ?? keepers[index];
    if (self === undefined) throw new Error(`keeper index ${index} is not in the ${keepers.length} keepers`);
    if (keepers.length > MAX_KEEPERS) {
      throw new Error(`a cluster runs at most ${MAX_KEEPERS} keepers, got ${keepers.length}`);
    }
    const timing = parseKeeperTiming(options.timing);
    const logger = options.logger ?? pino({ level: "silent" });
    const clock = options.clock ?? systemClock;
    const now = clock.now();
    const peers = new KeeperPeers(self, keepers, timing.missesToDead * timing.heartbeatIntervalMs, now);
    const ports = options.ports ?? grpcPorts({ callTimeoutMs: timing.probeTimeoutMs, tls: options.tls });
    const view = new SharedView(self, Math.max(0, keepers.indexOf(self)));
    view.seed(seedMembers(options.backends, options.zones, keepers).values());
    this.#state = new KeeperState(self, name, timing, logger, clock, ports, peers, view);
    const state = this.#state;
    this.metrics = new KeeperMetrics({
      owned: () => state.slice.size,
      states: () => this.view().backends,
      epoch: () => state.view.epoch,
      running: () => this.#runner.running,
      queued: () => this.#runner.queued.length,
      intentLog: () => this.#recovery.lastRead,
    });
    this.#witness = new LeaseWitness(state);
    this.#clocks = new ClockSync(state);
    this.#beats = new PeerBeats(state, this.#witness, {
      working: () => this.#working(),
      maxClock: () => this.#clocks.readMax,
      peerClock: (peerClock) => this.#clocks.raise(peerClock),
      // A backend gained from a peer's beat (one just added, or a slice taken over), or one of the
      // slice now leaving, is probed at once: its fill, renewals or copy do not wait for the next tick.
      merged: () => {
        const gained = this.#refreshSlice();
        if (this.#membership.leavingLearned() || gained) this.roundSoon();
      },
    });
    this.#runner = new RepairRunner(
      state,
      {
        recoveryRead: () => this.#recovery.reading,
        grant: (backend, filled, incarnation) => this.#prober.grant(backend, filled, incarnation),
        publish: (backend, reason, repairing) => this.#commits.publish(backend, reason, repairing),
        beatPeer: (peer) => this.#beats.beat(peer),
      },
      this.metrics,
    );
    this.#commits = new IntentCommit(
      state,
      (job) => this.#runner.enqueue(job),
      () => void this.#beats.round(),
    );
    this.#recovery = new IntentRecovery(state, {
      queuedIds: () => this.#runner.queuedIds(),
      putFirst: (jobs) => this.#runner.putFirst(jobs),
      run: () => void this.#runner.run(),
      settled: (backends) => this.#settled(backends),
    });
    this.#prober = new Prober(
      state,
      this.#witness,
      this.#commits,
      () => this.#working(),
      this.metrics,
      () => this.roundSoon(),
    );
    this.#membership = new MembershipChanges(state, {
      working: () => this.#working(),
      beat: () => void this.#beats.round(),
      roundSoon: () => this.roundSoon(),
    });
    this.#keeperRing = new KeeperRingChanges(state, {
      working: () => this.#working(),
      beat: () => void this.#beats.round(),
      farewell: () => void this.#beats.farewell(),
      answeringKeeper: (address, timeoutMs) => this.#beats.answeringKeeper(address, timeoutMs),
    });
  }

  get name(): string {
    return this.#state.name;
  }

  /** This keeper's address: its entry in the cluster file. */
  get self(): string {
    return this.#state.self;
  }

  get incarnation(): string {
    return this.#state.incarnation;
  }

  get timing(): KeeperTiming {
    return this.#state.timing;
  }

  get ring(): HashRing {
    return this.#state.ring;
  }

  get keeperRing(): KeeperRing {
    return this.#state.keeperRing;
  }

  get peers(): KeeperPeers {
    return this.#state.peers;
  }

  get epoch(): bigint {
    return this.#state.view.epoch;
  }

  get slice(): ReadonlySet<string> {
    return this.#state.slice;
  }

  start(): void {
    const { clock, logger, timing } = this.#state;
    const every = (ms: number, run: () => Promise<void>) => {
      this.#stopTimers.push(
        clock.every(ms, () => {
          run().catch((error: unknown) => logger.error({ err: error }, "keeper loop failed"));
        }),
      );
    };
    every(timing.heartbeatIntervalMs, () => this.heartbeatRound());
    every(timing.heartbeatIntervalMs, () => this.#beats.round());
    every(timing.clockSyncIntervalMs, () => this.#clocks.round());
    void this.#beats.round();
    void this.heartbeatRound();
  }

  async stop(): Promise<void> {
    this.#state.stopped = true;
    for (const stop of this.#stopTimers) stop();
    this.#state.ports.close();
  }

  /** The merged view: every backend on the ring and its published state (unknown until its owner published one). */
  view(): ClusterViewSnapshot {
    return viewSnapshot(this.#state);
  }

  /** Records a running backend as a member; its owner fills it (membership-changes.ts). */
  addBackend(address: string, zone: string): Promise<MembershipOutcome> {
    return this.#membership.add(address, zone);
  }

  /** Decommissions a member: its owner copies its bins elsewhere, then it leaves the ring. */
  removeBackend(address: string): Promise<MembershipOutcome> {
    return this.#membership.remove(address);
  }

  /** Records a running keeper as a member of the keeper ring: slices move to it. */
  addKeeper(address: string): Promise<MembershipOutcome> {
    return this.#keeperRing.add(address);
  }

  /** Takes a keeper off the keeper ring once it has handed its slice over. */
  removeKeeper(address: string): Promise<MembershipOutcome> {
    return this.#keeperRing.remove(address);
  }

  /** The keepers on the keeper ring and those leaving it: a view lists them for clients to follow. */
  keepers(): string[] {
    return this.#state.view
      .keeperRecords()
      .filter((record) => record.status !== "removed")
      .map((record) => record.address);
  }

  /** On the keeper ring, leaving it, or off it (acting on nothing, waiting to be added). */
  get ringStatus(): "member" | "leaving" | "off-ring" {
    return this.#state.selfStatus;
  }

  status(): KeeperStatus {
    return statusReport({
      state: this.#state,
      beatsSent: this.#beats.sent,
      working: this.#working(),
      runner: this.#runner,
      commits: this.#commits,
      recovery: this.#recovery,
    });
  }

  /** A beat from a peer: merge it, and answer with ours. */
  onBeat(beat: KeeperBeat__Output): KeeperBeat {
    return this.#beats.receive(beat);
  }

  /**
   * A heartbeat round now, or as soon as the running one ends, rather than at
   * the next tick: a backend just emptied is probed again at once, so its fill
   * (a backend added, or back after a death) does not wait up to an interval.
   */
  roundSoon(): void {
    this.#roundWanted = true;
    void this.heartbeatRound();
  }

  /** Probes every backend, then bootstraps, commits decided changes and publishes the rest. */
  async heartbeatRound(): Promise<void> {
    const state = this.#state;
    if (this.#heartbeating || state.stopped) return;
    this.#heartbeating = true;
    this.#roundWanted = false;
    try {
      const now = state.clock.now();
      // Stalled (paused) long enough that peers may have taken our slice over: hear from them before acting.
      if (
        this.#lastRoundAt > 0 &&
        now - this.#lastRoundAt > state.peers.deadAfterMs - state.timing.heartbeatIntervalMs
      ) {
        state.logger.warn(
          { stalledMs: Math.round(now - this.#lastRoundAt) },
          "keeper stalled; beating its peers first",
        );
        state.peers.presumeLive(now);
        await this.#beats.round();
      }
      this.#lastRoundAt = now;
      if (state.selfStatus === "off-ring") {
        await this.#waitToBeAdded();
        return;
      }
      this.#refreshSlice();
      if (++this.#rounds % LOG_SWEEP_ROUNDS === 0 && state.slice.size > 0) this.#recovery.add(state.slice);
      await Promise.all([...state.health.values()].map((health) => this.#prober.probe(health)));
      this.#prober.bootstrap();
      await this.#commits.commit();
      this.#commits.publishChanges();
      this.#membership.finishLeaving();
      this.#keeperRing.finishLeaving();
    } finally {
      this.#heartbeating = false;
      if (this.#roundWanted) void this.heartbeatRound();
    }
  }

  /**
   * Backends of the slice the log owes no work. A repair the log shows
   * finished, by a keeper that died before it could publish that, must not
   * stay published as running: clients would not read the stand-ins, and the
   * failure model would count the backend as impaired. And a backend this
   * keeper holds as filling that no keeper fills (its previous owner finished
   * the fill, then lost the backend to this keeper before its grant was seen
   * here) would stay unready for good: it is filled again.
   */
  #settled(backends: string[]): void {
    const state = this.#state;
    const working = new Set(this.#working());
    for (const backend of backends) {
      if (!state.slice.has(backend) || working.has(backend)) continue;
      if (state.view.get(backend)?.repairing) this.#commits.publish(backend, "repair found done", false);
      if (state.healthOf(backend).state === "filling" && !state.peers.workingOn(backend, state.clock.now())) {
        state.logger.info({ backend }, "filling, and no keeper fills it: filling it again");
        this.#commits.decide("fill", backend, without(state.liveSet(), backend));
      }
    }
  }

  /**
   * Off the keeper ring: hand over any slice left from before (a keeper just
   * removed), and learn the membership from the backends, to act once added.
   */
  async #waitToBeAdded(): Promise<void> {
    const state = this.#state;
    this.#refreshSlice();
    await Promise.all(state.backends.map((address) => state.learnMembership(address).catch(() => undefined)));
  }

  #working(): string[] {
    const running = this.#runner.running;
    return [
      ...new Set([
        ...(running ? [running.job.backend] : []),
        ...this.#runner.queued.map((job) => job.backend),
        ...this.#commits.pending.map((job) => job.backend),
        ...this.#recovery.backends,
      ]),
    ];
  }

  /**
   * Recomputes this keeper's slice; adopts what it gains, and reads the log for
   * it before new work. Whether it gained a backend.
   */
  #refreshSlice(): boolean {
    const state = this.#state;
    const next = state.peers.ownedSlice(state.keeperRing, state.backends, state.clock.now());
    const gained = [...next].filter((backend) => !state.slice.has(backend));
    const lost = [...state.slice].filter((backend) => !next.has(backend));
    if (gained.length === 0 && lost.length === 0) return false;
    state.slice = next;
    state.logger.info({ gained, lost, slice: [...next] }, "slice changed");
    for (const backend of lost) {
      this.#commits.forget(backend);
      this.#recovery.forget(backend);
      this.#witness.note(backend, state.clock.now());
    }
    this.#runner.keepOnly(next);
    for (const backend of gained) {
      const published = state.view.get(backend);
      const health = state.healthOf(backend);
      health.vouchedIncarnation = published?.incarnation || undefined;
      health.apply("taken-over", { to: published?.state ?? "unknown" });
    }
    if (gained.length > 0) this.#recovery.add(gained);
    return gained.length > 0;
  }
}
