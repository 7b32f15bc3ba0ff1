// A keeper: one of up to sixteen, each owning a slice of the backends (its
// stretch of the keeper ring, keeper-ring.ts). It probes every backend, but
// changes the state of, repairs and fills only the backends of its slice; it
// beats the other keepers every interval, merging their views into one
// (shared-view.ts) and taking over the slice of any keeper that falls silent,
// and handing it back when that keeper returns.
//
// Every state change that needs copying is committed first: the intent is
// recorded on the backends (intent-log.ts), then the state is published, then
// the work runs, then the intent is marked done. A keeper that gains backends
// reads the log and finishes their unfinished intents before any new work.
//
// Readiness leases. The owner renews the leases of its ready backends; every
// other keeper renews them too, for the incarnation the owner vouches for,
// while the view shows them ready and the owner does not withhold them (its
// beats list the backends it does not see ready). So when an owner dies,
// leases never lapse while its successor takes over. An owner declares a
// backend dead only once no lease on it may run: its own has lapsed, and every
// live keeper has answered a beat that showed the backend withheld (after
// which it renews it no more) with its last renewal older than a lease.
import { randomUUID } from "node:crypto";
import { BackendChannel } from "@binring/client";
import {
  type BackendState,
  bigintToWire,
  CLOCK_CEILING,
  HashRing,
  type HeartbeatReply__Output,
  type HeartbeatRequest,
  type KeeperBeat,
  type KeeperBeat__Output,
  ringMembers,
  wireToBigint,
} from "@binring/core";
import { type Logger, pino } from "pino";
import { BackendHealth, type HealthState, type ProbeReply } from "./backend-health.js";
import { type CopyProgress, copyTask } from "./copier.js";
import { type Intent, IntentLog, KEEPER_LOG_BIN } from "./intent-log.js";
import { type KeeperTiming, parseKeeperTiming } from "./keeper-options.js";
import { KeeperPeers, type PeerBeat } from "./keeper-peers.js";
import { KeeperRing } from "./keeper-ring.js";
import { PeerChannel } from "./peer-channel.js";
import { planCopies, planDrops } from "./repair-plan.js";
import { type PublishedState, SharedView } from "./shared-view.js";

export interface KeeperOptions {
  /** Every backend of the cluster (host:port). */
  backends: string[];
  /** Zone of each backend, as in the cluster file: placement must match the clients'. @default {} */
  zones?: Record<string, string>;
  /** Every keeper of the cluster (host:port), this one included. @default [name] */
  keepers?: string[];
  /** This keeper's position in `keepers`. @default 0 */
  index?: number;
  /** This keeper's name in logs and status. @default "keeper" */
  name?: string;
  timing?: Partial<KeeperTiming>;
  /** @default a silent logger */
  logger?: Logger;
}

export interface ViewEntry {
  address: string;
  state: HealthState;
}

export interface ClusterViewSnapshot {
  epoch: bigint;
  backends: ViewEntry[];
}

/** Work queued by a change of the live set. */
interface RepairJob {
  /** The id of its intent in the keeper log. */
  id: string;
  kind: "repair" | "fill";
  /** The backend that died (repair) or is being filled (fill). */
  backend: string;
  /** Backends in placement before the change. */
  wasLive: ReadonlySet<string>;
  attempts: number;
  /** Found unfinished in the log when this keeper took the backend over. */
  recovered: boolean;
}

interface RunningRepair {
  job: RepairJob;
  startedAt: number;
  progress: CopyProgress;
}

const RETRY_PAUSE_MS = 1000;
/** How long emptying a dead backend's store may take (one Drop of every bin it holds). */
const EMPTY_TIMEOUT_MS = 120_000;

/**
 * Every this many heartbeat rounds a keeper reads the log again for its whole
 * slice: an intent recorded by a keeper that lost the backend in a race with
 * its successor's first read is finished then, not left undone.
 */
const LOG_SWEEP_ROUNDS = 10;

export const STATE_TO_WIRE: Record<HealthState, BackendState> = {
  unknown: "BACKEND_STATE_UNKNOWN",
  ready: "BACKEND_STATE_READY",
  suspect: "BACKEND_STATE_SUSPECT",
  dead: "BACKEND_STATE_DEAD",
  filling: "BACKEND_STATE_FILLING",
};

const WIRE_TO_STATE = new Map(
  Object.entries(STATE_TO_WIRE).map(([state, wire]) => [wire, state as HealthState]),
);

export class Keeper {
  readonly name: string;
  /** This keeper's address: its entry in the cluster file. */
  readonly self: string;
  readonly incarnation = randomUUID();
  readonly timing: KeeperTiming;
  readonly ring: HashRing;
  readonly keeperRing: KeeperRing;
  readonly peers: KeeperPeers;
  readonly #backends: string[];
  readonly #view: SharedView;
  readonly #logger: Logger;
  readonly #log: IntentLog;
  readonly #health = new Map<string, BackendHealth>();
  readonly #channels = new Map<string, BackendChannel>();
  /** Backends whose store is being emptied now (#empty), one call each at a time. */
  readonly #emptying = new Set<string>();
  readonly #peerChannels = new Map<string, PeerChannel>();
  /** The backends this keeper owns now; recomputed on every round and beat. */
  #slice = new Set<string>();
  /** Backends gained whose unfinished intents have not been read from the log yet. */
  readonly #toRecover = new Set<string>();
  #recovering: Promise<void> | undefined;
  /** State changes decided but not yet committed: their intent is still to be recorded. */
  readonly #uncommitted = new Map<string, RepairJob>();
  /** Backend of this slice -> since when it is withheld (not ready here); absent while ready. */
  readonly #withheldSince = new Map<string, number>();
  /**
   * Backend of this slice -> peer -> its answer to a beat that showed the
   * backend withheld: when the beat was sent, and when the peer last renewed
   * the backend's lease (it renews no more once it saw it withheld).
   */
  readonly #quiet = new Map<string, Map<string, { sentAt: number; lastGrant: number }>>();
  #jobs: RepairJob[] = [];
  #running: RunningRepair | undefined;
  #runner = false;
  #completed: {
    id: string;
    kind: string;
    backend: string;
    entries: number;
    ms: number;
    recovered: boolean;
  }[] = [];
  /** Largest clock read from this slice's backends: carried by beats. */
  #sliceMaxClock = 0n;
  /** Largest clock this slice has been raised to: a beat above it triggers a raise at once. */
  #clockTarget = 0n;
  #timers: NodeJS.Timeout[] = [];
  /** Beats sent to peers since start: shown in status, so chatter between keepers is visible. */
  #beatsSent = 0;
  #stopped = false;
  #heartbeating = false;
  #beating = false;
  #syncing = false;
  /** A beat was asked for while one was in flight: it carried older news, so beat again after it. */
  #beatAgain = false;
  /** When the last heartbeat round started (ms); 0 before the first. */
  #lastRoundAt = 0;
  #rounds = 0;

  constructor(options: KeeperOptions) {
    this.name = options.name ?? "keeper";
    const keepers = options.keepers ?? [this.name];
    const index = options.index ?? 0;
    this.self = keepers[index]!;
    if (this.self === undefined)
      throw new Error(`keeper index ${index} is not in the ${keepers.length} keepers`);
    this.timing = parseKeeperTiming(options.timing);
    this.#logger = options.logger ?? pino({ level: "silent" });
    this.#backends = [...options.backends];
    this.ring = new HashRing(ringMembers(options.backends, options.zones));
    this.keeperRing = new KeeperRing(keepers);
    const now = performance.now();
    this.peers = new KeeperPeers(
      this.self,
      keepers,
      this.timing.missesToDead * this.timing.heartbeatIntervalMs,
      now,
    );
    this.#view = new SharedView(this.self, index);
    for (const address of options.backends) {
      this.#health.set(address, new BackendHealth(address, this.#logger, now));
      this.#channels.set(address, new BackendChannel(address, { callTimeoutMs: this.timing.probeTimeoutMs }));
    }
    for (const peer of this.peers.addresses) this.#peerChannels.set(peer, new PeerChannel(peer));
    this.#log = new IntentLog((address) => this.#channels.get(address)!, 2000, this.#logger);
  }

  start(): void {
    const every = (ms: number, run: () => Promise<void>) => {
      const timer = setInterval(() => {
        run().catch((error: unknown) => this.#logger.error({ err: error }, "keeper loop failed"));
      }, ms);
      this.#timers.push(timer);
    };
    every(this.timing.heartbeatIntervalMs, () => this.#heartbeatRound());
    every(this.timing.heartbeatIntervalMs, () => this.#beatRound());
    every(this.timing.clockSyncIntervalMs, () => this.#clockSyncRound());
    void this.#beatRound();
    void this.#heartbeatRound();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const timer of this.#timers) clearInterval(timer);
    for (const channel of this.#channels.values()) channel.close();
    for (const channel of this.#peerChannels.values()) channel.close();
  }

  get epoch(): bigint {
    return this.#view.epoch;
  }

  get slice(): ReadonlySet<string> {
    return this.#slice;
  }

  /** The merged view: every backend's published state (unknown until its owner published one). */
  view(): ClusterViewSnapshot {
    return {
      epoch: this.#view.epoch,
      backends: this.#backends.map((address) => ({
        address,
        state: this.#view.get(address)?.state ?? "unknown",
      })),
    };
  }

  status() {
    const now = performance.now();
    // A dead keeper owns nothing, whatever its last beat claimed.
    const sliceOf = (keeper: string): string[] =>
      keeper === this.self
        ? [...this.#slice]
        : this.peers.isLive(keeper, now)
          ? [...(this.peers.beatOf(keeper)?.slice ?? [])]
          : [];
    return {
      keeper: this.name,
      address: this.self,
      epoch: this.#view.epoch.toString(),
      beatsSent: this.#beatsSent,
      keepers: this.keeperRing.keepers.map((address) => ({
        address,
        self: address === this.self,
        alive: this.peers.isLive(address, now),
        slice: sliceOf(address).sort(),
        working: address === this.self ? this.#working() : [...(this.peers.beatOf(address)?.working ?? [])],
      })),
      backends: this.#backends.map((address) => {
        const health = this.#health.get(address)!;
        const owner = this.keeperRing.keepers.find((keeper) => sliceOf(keeper).includes(address)) ?? null;
        return {
          address,
          // Its owner's own view of it (suspect shows there); the view as published elsewhere.
          state: this.#slice.has(address) ? health.state : (this.#view.get(address)?.state ?? "unknown"),
          owner,
          misses: health.misses,
          clock: health.last?.clock.toString() ?? null,
          keys: health.last?.keys ?? null,
          lists: health.last?.lists ?? null,
          bins: health.last?.bins ?? null,
          lastAnswerMsAgo: Math.round(now - health.lastAnswerAt),
        };
      }),
      repairs: [
        ...(this.#running
          ? [
              {
                id: this.#running.job.id,
                kind: this.#running.job.kind,
                backend: this.#running.job.backend,
                state: "running",
                recovered: this.#running.job.recovered,
                runningMs: Math.round(now - this.#running.startedAt),
                ...this.#running.progress,
              },
            ]
          : []),
        ...this.#jobs.map((job) => ({ id: job.id, kind: job.kind, backend: job.backend, state: "queued" })),
        ...[...this.#uncommitted.values()].map((job) => ({
          id: job.id,
          kind: job.kind,
          backend: job.backend,
          state: "committing",
        })),
        ...[...this.#toRecover].map((backend) => ({
          kind: "recovery",
          backend,
          state: "reading the keeper log",
        })),
      ],
      completedRepairs: this.#completed.slice(-10),
    };
  }

  // ---- beats between keepers ----

  /** A beat from a peer: merge it, and answer with ours. */
  onBeat(beat: KeeperBeat__Output): KeeperBeat {
    this.#takeBeat(beat, performance.now());
    return this.#beatMessage();
  }

  #beatMessage(): KeeperBeat {
    const now = performance.now();
    return {
      keeper: this.self,
      incarnation: this.incarnation,
      epoch: bigintToWire(this.#view.epoch),
      backends: this.#view.entries().map(([address, published]) => ({
        address,
        state: STATE_TO_WIRE[published.state],
        version: bigintToWire(published.version),
        incarnation: published.incarnation,
        by: published.by,
      })),
      slice: [...this.#slice],
      working: this.#working(),
      maxClock: bigintToWire(this.#sliceMaxClock),
      withheld: this.#withheld(),
      grants: [...this.#health.values()]
        .filter((health) => health.lastGrantAt > Number.NEGATIVE_INFINITY)
        .map((health) => ({
          backend: health.address,
          ageMs: String(Math.max(0, Math.ceil(now - health.lastGrantAt))),
        })),
    };
  }

  /** Backends of this slice not ready as this keeper sees them: no other keeper may renew their leases. */
  #withheld(): string[] {
    const now = performance.now();
    for (const backend of this.#slice) this.#noteWithheld(backend, now);
    return [...this.#withheldSince.keys()];
  }

  /** Starts or ends a backend's withheld episode; answers from an earlier episode never count. */
  #noteWithheld(backend: string, now: number): void {
    const ready = this.#health.get(backend)!.state === "ready";
    if (!ready && this.#slice.has(backend)) {
      if (!this.#withheldSince.has(backend)) this.#withheldSince.set(backend, now);
    } else {
      this.#withheldSince.delete(backend);
      this.#quiet.delete(backend);
    }
  }

  #working(): string[] {
    return [
      ...new Set([
        ...(this.#running ? [this.#running.job.backend] : []),
        ...this.#jobs.map((job) => job.backend),
        ...this.#uncommitted.keys(),
        ...this.#toRecover,
      ]),
    ];
  }

  #takeBeat(beat: KeeperBeat__Output, now: number): void {
    const peer: PeerBeat = {
      incarnation: beat.incarnation,
      slice: new Set(beat.slice),
      working: new Set(beat.working),
      // A clock at or past the ceiling is no backend's (core/value-bounds.ts): passing it on as a
      // floor would fail every heartbeat.
      maxClock: belowCeiling(wireToBigint(beat.maxClock)),
      grantAges: new Map(beat.grants.map((grant) => [grant.backend, Number(grant.ageMs)])),
      withheld: new Set(beat.withheld),
    };
    if (this.peers.heard(beat.keeper, peer, now))
      this.#logger.info({ peer: beat.keeper }, "keeper restarted");
    const published = new Map<string, PublishedState>();
    for (const entry of beat.backends) {
      const state = WIRE_TO_STATE.get(entry.state);
      if (!state || !this.#health.has(entry.address)) continue;
      published.set(entry.address, {
        state,
        version: wireToBigint(entry.version),
        incarnation: entry.incarnation,
        by: entry.by,
      });
    }
    if (this.#view.merge(wireToBigint(beat.epoch), published) !== "unchanged") {
      this.#logger.debug({ epoch: this.#view.epoch.toString(), from: beat.keeper }, "view merged");
    }
    this.#raiseSlice(peer.maxClock);
    this.#refreshSlice();
  }

  /** Beats every peer; asked again while a round is in flight, it runs once more after it. */
  async #beatRound(): Promise<void> {
    if (this.#stopped) return;
    if (this.#beating) {
      this.#beatAgain = true;
      return;
    }
    this.#beating = true;
    try {
      do {
        this.#beatAgain = false;
        await Promise.all(this.peers.addresses.map((peer) => this.#beatPeer(peer)));
      } while (this.#beatAgain && !this.#stopped);
    } finally {
      this.#beating = false;
    }
  }

  /** Beats one peer; resolves true once its answer (taken after it merged our view) is merged here. */
  async #beatPeer(peer: string): Promise<boolean> {
    const withheld = this.#withheld();
    const sentAt = performance.now();
    this.#beatsSent++;
    let reply: KeeperBeat__Output;
    try {
      // A beat may take up to an interval: a slow peer is not a dead one, and the fence waits for it.
      reply = await this.#peerChannels.get(peer)!.beat(this.#beatMessage(), this.timing.heartbeatIntervalMs);
    } catch {
      return false;
    }
    const now = performance.now();
    if (reply.keeper !== peer) return false;
    this.#takeBeat(reply, now);
    // The peer saw these backends withheld before it answered, so it renews them no more:
    // its last renewal, as it reports it, bounds every lease it gave them.
    for (const backend of withheld) {
      const age = reply.grants.find((grant) => grant.backend === backend)?.ageMs;
      let quiet = this.#quiet.get(backend);
      if (!quiet) {
        quiet = new Map();
        this.#quiet.set(backend, quiet);
      }
      quiet.set(peer, {
        sentAt,
        lastGrant: age === undefined ? Number.NEGATIVE_INFINITY : now - Number(age),
      });
    }
    return true;
  }

  /**
   * No lease another live keeper gave this backend may still run. Only
   * answers to beats sent while it was withheld count, and they are dropped
   * whenever it is seen ready again (other keepers then renew it again).
   */
  #othersLapsed(backend: string, now: number): boolean {
    const since = this.#withheldSince.get(backend);
    const quiet = this.#quiet.get(backend);
    return this.peers.livePeers(now).every((peer) => {
      const answer = quiet?.get(peer);
      return (
        since !== undefined &&
        answer !== undefined &&
        answer.sentAt >= since &&
        now - answer.lastGrant > this.timing.leaseMs
      );
    });
  }

  /** Recomputes this keeper's slice; adopts what it gains, and reads the log for it before new work. */
  #refreshSlice(): void {
    const next = this.peers.ownedSlice(this.keeperRing, this.#backends, performance.now());
    const gained = [...next].filter((backend) => !this.#slice.has(backend));
    const lost = [...this.#slice].filter((backend) => !next.has(backend));
    if (gained.length === 0 && lost.length === 0) return;
    this.#slice = next;
    this.#logger.info({ gained, lost, slice: [...next] }, "slice changed");
    for (const backend of lost) {
      this.#uncommitted.delete(backend);
      this.#toRecover.delete(backend);
      this.#noteWithheld(backend, performance.now());
    }
    this.#jobs = this.#jobs.filter((job) => next.has(job.backend));
    for (const backend of gained) {
      const published = this.#view.get(backend);
      const health = this.#health.get(backend)!;
      health.vouchedIncarnation = published?.incarnation || undefined;
      health.setState(published?.state ?? "unknown", "taken over");
      this.#toRecover.add(backend);
    }
    if (gained.length > 0) this.#recover();
  }

  // ---- the commit point and recovery ----

  /** Where intents are recorded: the log bin's replicas among the backends that answer now. */
  #logTargets(): string[] {
    const live = this.#liveSet();
    return this.ring.replicasFor(KEEPER_LOG_BIN, (id) => live.has(id) && this.#health.get(id)!.misses === 0);
  }

  /** Reads the log for the backends gained, and queues their unfinished intents ahead of any other work. */
  #recover(): void {
    if (this.#recovering) return;
    this.#recovering = (async () => {
      while (this.#toRecover.size > 0 && !this.#stopped) {
        const backends = new Set(this.#toRecover);
        const sources = this.#backends.filter((id) => this.#health.get(id)!.misses === 0);
        try {
          const log = await this.#log.read(sources);
          const unfinished = log.intents
            .filter((intent) => !log.done.has(intent.id) && backends.has(intent.backend))
            .sort((a, b) => a.at - b.at);
          for (const backend of backends) this.#toRecover.delete(backend);
          const queued = new Set([
            ...this.#jobs.map((job) => job.id),
            ...(this.#running ? [this.#running.job.id] : []),
          ]);
          const recovered = unfinished
            .filter((intent) => this.#slice.has(intent.backend) && !queued.has(intent.id))
            .map((intent) => jobFromIntent(intent));
          this.#jobs.unshift(...recovered);
          if (recovered.length === 0) continue;
          this.#logger.info(
            { backends: [...backends], unfinished: recovered.map((job) => `${job.kind} ${job.backend}`) },
            "read the keeper log for the backends taken over",
          );
        } catch (error) {
          this.#logger.warn({ err: (error as Error).message }, "keeper log unreadable; will retry");
          await pause(RETRY_PAUSE_MS);
        }
      }
    })().finally(() => {
      this.#recovering = undefined;
      void this.#runJobs();
    });
  }

  /** Records the intents of decided changes, then publishes the changes and queues their work. */
  async #commit(): Promise<void> {
    for (const [backend, job] of [...this.#uncommitted]) {
      const intent: Intent = {
        id: job.id,
        kind: job.kind,
        backend,
        wasLive: [...job.wasLive],
        by: this.self,
        at: Date.now(),
      };
      const targets = this.#logTargets();
      const recorded = await this.#log.record(intent, targets);
      if (this.#uncommitted.get(backend) !== job) {
        // Handed over while it was being recorded: never published, so no work is owed; say so in the log.
        if (recorded > 0) await this.#log.complete(job.id, targets);
        continue;
      }
      if (recorded === 0) {
        this.#logger.warn({ backend, job: job.kind }, "could not record the intent; will retry");
        continue;
      }
      this.#uncommitted.delete(backend);
      this.#publish(backend, `${job.kind} committed`);
      this.#enqueue(job);
    }
  }

  /** Publishes this keeper's state of one of its backends, under a new epoch. */
  #publish(backend: string, reason: string): void {
    const health = this.#health.get(backend)!;
    const state = publishedState(health.state);
    const epoch = this.#view.publish(backend, state, health.last?.incarnation ?? "");
    this.#logger.info({ epoch: epoch.toString(), backend, state, reason }, "view changed");
    void this.#beatRound();
  }

  /** Publishes every backend of the slice whose state moved without needing copies (bootstrap, a new incarnation). */
  #publishChanges(): void {
    for (const backend of this.#slice) {
      const health = this.#health.get(backend)!;
      if (this.#uncommitted.has(backend) || health.state === "unknown") continue;
      const published = this.#view.get(backend);
      if (
        published?.state !== publishedState(health.state) ||
        published.incarnation !== (health.last?.incarnation ?? "")
      ) {
        this.#publish(backend, "state changed");
      }
    }
  }

  // ---- probing backends ----

  #liveSet(): Set<string> {
    return new Set(this.#backends.filter((address) => this.#view.get(address)?.state !== "dead"));
  }

  #heartbeat(address: string, request: HeartbeatRequest, timeoutMs = this.timing.probeTimeoutMs) {
    return this.#channels
      .get(address)!
      .heartbeat({ epoch: bigintToWire(this.#view.epoch), ...request }, timeoutMs);
  }

  async #heartbeatRound(): Promise<void> {
    if (this.#heartbeating || this.#stopped) return;
    this.#heartbeating = true;
    try {
      const now = performance.now();
      // Stalled (paused) long enough that peers may have taken our slice over: hear from them before acting.
      if (
        this.#lastRoundAt > 0 &&
        now - this.#lastRoundAt > this.peers.deadAfterMs - this.timing.heartbeatIntervalMs
      ) {
        this.#logger.warn(
          { stalledMs: Math.round(now - this.#lastRoundAt) },
          "keeper stalled; beating its peers first",
        );
        this.peers.presumeLive(now);
        await this.#beatRound();
      }
      this.#lastRoundAt = now;
      this.#refreshSlice();
      if (++this.#rounds % LOG_SWEEP_ROUNDS === 0 && this.#slice.size > 0) {
        for (const backend of this.#slice) this.#toRecover.add(backend);
        this.#recover();
      }
      await Promise.all([...this.#health.values()].map((health) => this.#probe(health)));
      this.#bootstrap();
      await this.#commit();
      this.#publishChanges();
    } finally {
      this.#heartbeating = false;
    }
  }

  async #probe(health: BackendHealth): Promise<void> {
    const owned = this.#slice.has(health.address);
    const published = this.#view.get(health.address);
    let renew: boolean;
    let revoke = false;
    let incarnation: string;
    if (owned) {
      renew = (health.state === "ready" || health.state === "suspect") && health.last !== undefined;
      revoke = health.state === "filling" || health.state === "dead";
      incarnation = health.last?.incarnation ?? "";
    } else {
      // A standby renewal: only while the owner publishes it ready and does not withhold it, and
      // only for the incarnation the owner vouches for.
      renew =
        published?.state === "ready" &&
        published.incarnation !== "" &&
        !this.peers.withholds(health.address, performance.now());
      incarnation = published?.incarnation ?? "";
    }
    const sentAt = performance.now();
    let reply: HeartbeatReply__Output | undefined;
    try {
      reply = await this.#heartbeat(health.address, {
        readiness: renew ? "READINESS_READY" : revoke ? "READINESS_NOT_READY" : "READINESS_UNSPECIFIED",
        leaseMs: String(this.timing.leaseMs),
        incarnation,
      });
    } catch {
      reply = undefined;
    }
    const now = performance.now();
    if (!reply?.storeOk) {
      if (owned && this.#slice.has(health.address)) this.#missed(health, now);
      else health.misses++;
      this.#noteWithheld(health.address, now);
      return;
    }
    if (renew && reply.incarnation === incarnation) health.lastGrantAt = sentAt;
    this.#view.observe(wireToBigint(reply.epoch));
    const probe = toProbeReply(reply);
    if (!owned || !this.#slice.has(health.address) || health.state === "unknown") {
      health.last = probe;
      health.lastAnswerAt = now;
      health.misses = 0;
      return;
    }
    if (health.mustBeEmptied(probe)) {
      health.heard(probe, now);
      void this.#empty(health, probe.incarnation);
    } else {
      const wasLive = this.#liveSet();
      const answer = health.answered(probe, now);
      if (answer === "rejoined") this.#decide("fill", health.address, without(wasLive, health.address));
      if (answer === "lapsed") {
        this.#logger.info({ backend: health.address }, "lease lapsed; granting readiness again");
        void this.#grant(health, true);
      }
    }
    this.#noteWithheld(health.address, now);
  }

  /**
   * Empties the store of a backend declared dead that answers again, before it
   * is filled (it stays dead in the view meanwhile, so no writer uses it), and
   * again if it restarts during that fill (it is filling then, so writers use
   * it, as they would after any restart: the fill that follows copies their
   * entries back). The fill copies every entry of its stretches anyway; what
   * it held from before is at best redundant and at worst older than
   * tombstones swept since. The backend refuses if it is ready or no longer
   * `incarnation` (this keeper acted on an old answer), and reports the
   * incarnation the empty ended in: the one the fill may make ready.
   */
  async #empty(health: BackendHealth, incarnation: string): Promise<void> {
    if (this.#emptying.has(health.address)) return;
    this.#emptying.add(health.address);
    try {
      const emptied = await this.#channels.get(health.address)!.empty(incarnation, EMPTY_TIMEOUT_MS);
      health.wipedIncarnation = emptied.incarnation;
      this.#logger.info(
        { backend: health.address, incarnation: emptied.incarnation, bins: emptied.bins },
        "emptied a backend (declared dead since it was last ready); it is filled next",
      );
    } catch (error) {
      this.#logger.warn(
        { backend: health.address, err: (error as Error).message },
        "could not empty a backend (declared dead since it was last ready); trying again at its next answer",
      );
    } finally {
      this.#emptying.delete(health.address);
    }
  }

  #missed(health: BackendHealth, now: number): void {
    const wasLive = this.#liveSet();
    const othersLapsed = this.#othersLapsed(health.address, now);
    if (health.missed(now, this.timing.missesToDead, this.timing.leaseMs, othersLapsed) === "died") {
      this.#decide("repair", health.address, wasLive);
    }
  }

  /** A change that needs copies: committed (intent recorded) before it is published. */
  #decide(kind: "repair" | "fill", backend: string, wasLive: ReadonlySet<string>): void {
    this.#uncommitted.set(backend, {
      id: `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`,
      kind,
      backend,
      wasLive,
      attempts: 0,
      recovered: false,
    });
  }

  /**
   * Backends of the slice that no keeper has published yet (a fresh cluster,
   * or every keeper restarted) and that answered: a fresh cluster (every
   * backend that answered is empty and not ready, and nothing is published) is
   * made ready at once; otherwise ready backends stay ready and the others are
   * filled first.
   */
  #bootstrap(): void {
    const pending = [...this.#slice]
      .map((address) => this.#health.get(address)!)
      .filter((health) => health.state === "unknown" && health.last !== undefined);
    if (pending.length === 0) return;
    const answered = [...this.#health.values()].filter((health) => health.misses === 0 && health.last);
    const fresh =
      this.#view.isEmpty && answered.every((health) => !health.last!.ready && health.last!.bins === 0);
    const wasLive = this.#liveSet();
    for (const health of pending) {
      if (fresh || (health.last!.ready && !health.last!.needsFill)) {
        health.setState("ready", fresh ? "fresh cluster" : "ready before this keeper started");
        if (fresh) void this.#grant(health, true);
      } else {
        health.setState("filling", "not ready when this keeper took it");
        this.#decide("fill", health.address, without(wasLive, health.address));
      }
    }
  }

  /**
   * Grants readiness now (after a fill, or at bootstrap) to `incarnation`, by
   * default the one last seen. Returns whether the backend took it: it refuses
   * a grant for an incarnation it no longer is, having lost entries since.
   */
  async #grant(
    health: BackendHealth,
    filled: boolean,
    incarnation = health.last?.incarnation ?? "",
  ): Promise<boolean> {
    const sentAt = performance.now();
    try {
      const reply = await this.#heartbeat(health.address, {
        readiness: "READINESS_READY",
        leaseMs: String(this.timing.leaseMs),
        incarnation,
        filled,
      });
      if (!reply.ready || reply.incarnation !== incarnation) return false;
      health.lastGrantAt = sentAt;
      return true;
    } catch (error) {
      this.#logger.warn(
        { backend: health.address, err: (error as Error).message },
        "grant of readiness failed",
      );
      return false;
    }
  }

  // ---- repair and fill ----

  #enqueue(job: RepairJob): void {
    this.#jobs.push(job);
    void this.#runJobs();
  }

  async #runJobs(): Promise<void> {
    if (this.#runner) return;
    this.#runner = true;
    try {
      while (!this.#stopped) {
        if (this.#recovering) await this.#recovering;
        const job = this.#jobs.shift();
        if (!job) return;
        if (!this.#slice.has(job.backend)) continue;
        const busy = this.peers.workingOn(job.backend, performance.now());
        if (busy) {
          // A hand-back in progress: the previous owner still runs this backend's work. Never both at once.
          this.#logger.info(
            { backend: job.backend, peer: busy },
            "waiting for a peer to finish its work first",
          );
          this.#jobs.push(job);
          await pause(RETRY_PAUSE_MS);
          continue;
        }
        const progress: CopyProgress = { entriesCopied: 0, tasksDone: 0, tasksTotal: 0 };
        this.#running = { job, startedAt: performance.now(), progress };
        try {
          const outcome = await this.#runJob(job, progress);
          if (outcome === "retry" && !this.#stopped) {
            await pause(RETRY_PAUSE_MS);
            this.#jobs.push({ ...job, attempts: job.attempts + 1 });
          }
        } catch (error) {
          this.#logger.error(
            { err: error, job: job.kind, backend: job.backend },
            "repair failed; will retry",
          );
          this.#jobs.push({ ...job, attempts: job.attempts + 1 });
        } finally {
          this.#running = undefined;
        }
      }
    } finally {
      this.#runner = false;
    }
  }

  async #runJob(job: RepairJob, progress: CopyProgress): Promise<"done" | "retry" | "handed over"> {
    const health = this.#health.get(job.backend)!;
    const stillMine = () => !this.#stopped && this.#slice.has(job.backend);
    if (job.recovered) {
      const log = await this.#log.read(this.#backends.filter((id) => this.#health.get(id)!.misses === 0));
      if (log.done.has(job.id)) return "done";
    }
    if (job.kind === "fill" && health.state !== "filling") {
      // Filled already (by an earlier attempt, or by a keeper that died since): only releases may be left.
      const filled = health.state === "ready" || health.state === "suspect";
      if (filled && !(await this.#dropReleased(job.wasLive))) return "retry";
      await this.#finish(job, progress, performance.now());
      return "done";
    }
    const startedAt = performance.now();
    if (!(await this.#fence())) return "retry";
    // Seen before the first copy. If the backend loses entries from here on, it is another
    // incarnation by the time the fill ends and refuses the grant below. If it is declared dead
    // (paused, say, and back with the same incarnation), writes were acknowledged without it, in
    // bins this fill may have copied already: the fill does not count either.
    const filling = health.last?.incarnation;
    // That incarnation's store is to be emptied first (#probe does it): copies made now would go with it.
    if (job.kind === "fill" && health.last !== undefined && health.mustBeEmptied(health.last)) return "retry";
    const deaths = health.deaths;
    const isLive = this.#liveSet();
    const tasks = planCopies(
      this.ring,
      (id) => job.wasLive.has(id),
      (id) => isLive.has(id),
    ).filter((task) => job.kind === "repair" || task.target === job.backend);
    progress.tasksTotal = tasks.length;
    this.#logger.info(
      {
        job: job.kind,
        id: job.id,
        backend: job.backend,
        tasks: tasks.length,
        attempt: job.attempts,
        recovered: job.recovered,
      },
      job.kind === "repair" ? "repair started" : "fill started",
    );
    let complete = true;
    for (const task of tasks) {
      if (!stillMine()) break;
      if (!isLive.has(task.target) || this.#view.get(task.target)?.state === "dead") continue;
      const copied = await copyTask(task, {
        channel: (address) => this.#channels.get(address)!,
        epoch: () => this.#view.epoch,
        batchSize: this.timing.copyBatchSize,
        logger: this.#logger,
        progress,
        stop: () => !stillMine(),
      });
      if (copied) progress.tasksDone++;
      else complete = false;
      this.#logger.info(
        {
          job: job.kind,
          backend: job.backend,
          target: task.target,
          done: progress.tasksDone,
          of: tasks.length,
          entries: progress.entriesCopied,
        },
        "repair progress",
      );
    }
    if (!stillMine()) {
      this.#logger.info(
        { job: job.kind, id: job.id, backend: job.backend },
        "backend handed over; its new owner finishes the work from the log",
      );
      return "handed over";
    }
    if (!complete) return "retry";
    if (job.kind === "fill" && health.state === "filling") {
      if (health.deaths !== deaths) {
        this.#logger.warn(
          { backend: job.backend },
          "backend was declared dead during its fill; filling again",
        );
        return "retry";
      }
      // Undefined: never heard from, so a grant could name no incarnation (an empty one means any).
      if (filling === undefined || !(await this.#grant(health, true, filling))) {
        this.#logger.warn(
          { backend: job.backend, incarnation: filling },
          "backend did not take readiness after the fill (it lost entries during it, or did not answer); filling again",
        );
        return "retry";
      }
      health.setState("ready", "filled");
      this.#publish(job.backend, "filled");
      if (!(await this.#dropReleased(job.wasLive))) return "retry";
    }
    await this.#finish(job, progress, startedAt);
    return "done";
  }

  /** Marks the intent done in the log, so no keeper redoes it. */
  async #finish(job: RepairJob, progress: CopyProgress, startedAt: number): Promise<void> {
    const recorded = await this.#log.complete(job.id, this.#logTargets());
    if (recorded === 0)
      this.#logger.warn({ id: job.id }, "could not mark the intent done; a successor may redo it");
    const ms = Math.round(performance.now() - startedAt);
    this.#completed.push({
      id: job.id,
      kind: job.kind,
      backend: job.backend,
      entries: progress.entriesCopied,
      ms,
      recovered: job.recovered,
    });
    this.#logger.info(
      {
        job: job.kind,
        id: job.id,
        backend: job.backend,
        entries: progress.entriesCopied,
        ms,
        recovered: job.recovered,
      },
      "repair finished",
    );
  }

  /**
   * After a rejoin, the backends that stood in for the returning one hold
   * stretches they are no longer replicas of: drop them, now that the new
   * holder has every entry. Planned against the view as it is now, so a
   * stretch that became theirs again meanwhile is kept, and a backend dead
   * since is left to be emptied when it returns. Returns whether every drop
   * succeeded: until then the fill's intent stays open and is retried, by a
   * successor too. An extra copy left behind misses the deletions made after
   * its release; once their tombstones are swept, a later return of the
   * stretch to it would merge its stale entries and bring deleted data back.
   */
  async #dropReleased(wasLive: ReadonlySet<string>): Promise<boolean> {
    let dropped = true;
    const isLive = this.#liveSet();
    for (const drop of planDrops(
      this.ring,
      (id) => wasLive.has(id),
      (id) => isLive.has(id),
    )) {
      try {
        const bins = await this.#channels.get(drop.backend)!.drop(drop.ranges, 60_000);
        this.#logger.info(
          { backend: drop.backend, bins, ranges: drop.ranges.length },
          "dropped bins it no longer holds",
        );
      } catch (error) {
        this.#logger.warn(
          { backend: drop.backend, err: (error as Error).message },
          "drop failed; trying again",
        );
        dropped = false;
      }
    }
    return dropped;
  }

  /**
   * Makes sure no writer keeps an older replica set: first every live keeper
   * merges this view (its answer to our beat comes after the merge), so every
   * epoch minted from now on includes our changes; then the epoch is pushed to
   * every live backend, which refuses older views from then on. False when a
   * live keeper did not answer (retried until it does, or is declared dead).
   */
  async #fence(): Promise<boolean> {
    const answers = await Promise.all(
      this.peers.livePeers(performance.now()).map((peer) => this.#beatPeer(peer)),
    );
    if (!answers.every(Boolean)) return false;
    await Promise.all(
      [...this.#liveSet()].map((address) => this.#heartbeat(address, {}).catch(() => undefined)),
    );
    return true;
  }

  // ---- clocks ----

  /**
   * Every clock-sync interval: raises this slice's backends to the largest
   * clock known, reads their clocks from the answers, raises the laggards to
   * the slice's largest, and beats the peers when that is a new largest clock
   * of the cluster. Only this round beats: a raise triggered by a peer's beat
   * never does, or two keepers under write load would trigger each other
   * without end (every round finds clocks moved on by the writes).
   */
  async #clockSyncRound(): Promise<void> {
    if (this.#syncing || this.#stopped) return;
    this.#syncing = true;
    try {
      await this.#syncClocks();
    } finally {
      this.#syncing = false;
    }
  }

  async #syncClocks(): Promise<void> {
    const peersMax = this.peers.maxClock(performance.now());
    const floor = peersMax > this.#clockTarget ? peersMax : this.#clockTarget;
    const slice = this.#liveSlice();
    const clocks = await Promise.all(
      slice.map((address) =>
        this.#heartbeat(address, { clockFloor: bigintToWire(floor) }).then(
          (reply) => BigInt(reply.clock),
          () => undefined,
        ),
      ),
    );
    let sliceMax = 0n;
    for (const clock of clocks) if (clock !== undefined && clock > sliceMax) sliceMax = clock;
    if (sliceMax > this.#sliceMaxClock) {
      this.#sliceMaxClock = sliceMax;
      // Only a new largest clock of the cluster is worth a beat now; anything less, peers already have.
      if (sliceMax > peersMax) void this.#beatRound();
    }
    if (sliceMax > this.#clockTarget) this.#clockTarget = sliceMax;
    await Promise.all(
      slice.map((address, i) =>
        clocks[i] !== undefined && clocks[i]! < sliceMax
          ? this.#heartbeat(address, { clockFloor: bigintToWire(sliceMax) }).catch(() => undefined)
          : undefined,
      ),
    );
  }

  /** A peer's beat carried a clock above this slice's: raise the slice to it at once. */
  #raiseSlice(clock: bigint): void {
    if (clock <= this.#clockTarget || this.#stopped) return;
    this.#clockTarget = clock;
    for (const address of this.#liveSlice()) {
      this.#heartbeat(address, { clockFloor: bigintToWire(clock) }).catch(() => undefined);
    }
  }

  #liveSlice(): string[] {
    const live = this.#liveSet();
    return [...this.#slice].filter((address) => live.has(address));
  }
}

/** Suspect is this keeper's doubt, not a change of placement: the view shows it as ready. */
function publishedState(state: HealthState): HealthState {
  return state === "suspect" ? "ready" : state;
}

function jobFromIntent(intent: Intent): RepairJob {
  return {
    id: intent.id,
    kind: intent.kind,
    backend: intent.backend,
    wasLive: new Set(intent.wasLive),
    attempts: 0,
    recovered: true,
  };
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function toProbeReply(reply: HeartbeatReply__Output): ProbeReply {
  return {
    incarnation: reply.incarnation,
    ready: reply.ready,
    needsFill: reply.needsFill,
    storeOk: reply.storeOk,
    epoch: BigInt(reply.epoch),
    clock: BigInt(reply.clock),
    keys: Number(reply.keys),
    lists: Number(reply.lists),
    bins: Number(reply.bins),
  };
}

function without(set: ReadonlySet<string>, item: string): Set<string> {
  const copy = new Set(set);
  copy.delete(item);
  return copy;
}

function belowCeiling(clock: bigint): bigint {
  return clock < CLOCK_CEILING ? clock : 0n;
}
