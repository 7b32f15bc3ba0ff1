// A keeper: probes the backends it is responsible for, keeps their clocks
// converged, serves the cluster view, and repairs. Every change of a backend's
// state bumps the view epoch; before any copy starts, the new epoch is pushed
// to every live backend, so no writer can keep using an older replica set.
//
// Repair after a death and fill after a rejoin are one mechanism: plan the
// copies between the live set before the change and the live set now
// (repair-plan.ts), then copy the union of every live holder to each backend
// that became a replica. A backend that rejoins is in placement for writes
// from the moment it is "filling", and is granted readiness only once its
// copies are complete.
import { BackendChannel } from "@binring/client";
import {
  bigintToWire,
  HashRing,
  type HeartbeatReply__Output,
  type HeartbeatRequest,
  ringMembers,
} from "@binring/core";
import { type Logger, pino } from "pino";
import { BackendHealth, type HealthState, type ProbeReply } from "./backend-health.js";
import { type CopyProgress, copyTask } from "./copier.js";
import { type KeeperTiming, parseKeeperTiming } from "./keeper-options.js";
import { planCopies, planDrops } from "./repair-plan.js";

export interface KeeperOptions {
  /** Every backend of the cluster (host:port). */
  backends: string[];
  /** Zone of each backend, as in the cluster file: placement must match the clients'. @default {} */
  zones?: Record<string, string>;
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
  kind: "repair" | "fill";
  /** The backend that died (repair) or is being filled (fill). */
  backend: string;
  /** Backends in placement before the change. */
  wasLive: ReadonlySet<string>;
  attempts: number;
}

interface RunningRepair {
  job: RepairJob;
  startedAt: number;
  progress: CopyProgress;
}

const RETRY_PAUSE_MS = 1000;

export class Keeper {
  readonly name: string;
  readonly timing: KeeperTiming;
  readonly ring: HashRing;
  readonly #logger: Logger;
  readonly #health = new Map<string, BackendHealth>();
  readonly #channels = new Map<string, BackendChannel>();
  #epoch = 0n;
  #bootstrapped = false;
  #jobs: RepairJob[] = [];
  #running: RunningRepair | undefined;
  #completed: { kind: string; backend: string; entries: number; ms: number }[] = [];
  #timers: NodeJS.Timeout[] = [];
  #stopped = false;
  #heartbeating = false;
  #syncing = false;

  constructor(options: KeeperOptions) {
    this.name = options.name ?? "keeper";
    this.timing = parseKeeperTiming(options.timing);
    this.#logger = options.logger ?? pino({ level: "silent" });
    this.ring = new HashRing(ringMembers(options.backends, options.zones));
    const now = performance.now();
    for (const address of options.backends) {
      this.#health.set(address, new BackendHealth(address, this.#logger, now));
      this.#channels.set(address, new BackendChannel(address, { callTimeoutMs: this.timing.probeTimeoutMs }));
    }
  }

  start(): void {
    const every = (ms: number, run: () => Promise<void>) => {
      const timer = setInterval(() => {
        run().catch((error: unknown) => this.#logger.error({ err: error }, "keeper loop failed"));
      }, ms);
      this.#timers.push(timer);
    };
    every(this.timing.heartbeatIntervalMs, () => this.#heartbeatRound());
    every(this.timing.clockSyncIntervalMs, () => this.#clockSyncRound());
    void this.#heartbeatRound();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const timer of this.#timers) clearInterval(timer);
    for (const channel of this.#channels.values()) channel.close();
  }

  get epoch(): bigint {
    return this.#epoch;
  }

  view(): ClusterViewSnapshot {
    return {
      epoch: this.#epoch,
      backends: [...this.#health.values()].map(({ address, state }) => ({ address, state })),
    };
  }

  status() {
    const now = performance.now();
    return {
      keeper: this.name,
      epoch: this.#epoch.toString(),
      bootstrapped: this.#bootstrapped,
      backends: [...this.#health.values()].map((health) => ({
        address: health.address,
        state: health.state,
        misses: health.misses,
        clock: health.last?.clock.toString() ?? null,
        keys: health.last?.keys ?? null,
        lists: health.last?.lists ?? null,
        bins: health.last?.bins ?? null,
        lastAnswerMsAgo: Math.round(now - health.lastAnswerAt),
      })),
      repairs: [
        ...(this.#running
          ? [
              {
                kind: this.#running.job.kind,
                backend: this.#running.job.backend,
                state: "running",
                runningMs: Math.round(now - this.#running.startedAt),
                ...this.#running.progress,
              },
            ]
          : []),
        ...this.#jobs.map((job) => ({ kind: job.kind, backend: job.backend, state: "queued" })),
      ],
      completedRepairs: this.#completed.slice(-10),
    };
  }

  #isLive(address: string): boolean {
    return this.#health.get(address)?.state !== "dead";
  }

  #liveSet(): Set<string> {
    return new Set([...this.#health.keys()].filter((address) => this.#isLive(address)));
  }

  /** Records a change of the view: a new epoch, pushed to backends by the next heartbeat. */
  #changed(reason: string): void {
    this.#epoch++;
    this.#logger.info({ epoch: this.#epoch.toString(), reason }, "view changed");
  }

  #heartbeat(address: string, request: HeartbeatRequest, timeoutMs = this.timing.probeTimeoutMs) {
    return this.#channels
      .get(address)!
      .heartbeat({ epoch: bigintToWire(this.#epoch), ...request }, timeoutMs);
  }

  async #heartbeatRound(): Promise<void> {
    if (this.#heartbeating || this.#stopped) return;
    this.#heartbeating = true;
    try {
      await Promise.all([...this.#health.values()].map((health) => this.#probe(health)));
      if (!this.#bootstrapped) this.#bootstrap();
    } finally {
      this.#heartbeating = false;
    }
  }

  async #probe(health: BackendHealth): Promise<void> {
    const renew = (health.state === "ready" || health.state === "suspect") && health.last !== undefined;
    const revoke = health.state === "filling" || health.state === "dead";
    const sentAt = performance.now();
    let reply: HeartbeatReply__Output;
    try {
      reply = await this.#heartbeat(health.address, {
        readiness: renew ? "READINESS_READY" : revoke ? "READINESS_NOT_READY" : "READINESS_UNSPECIFIED",
        leaseMs: String(this.timing.leaseMs),
        incarnation: health.last?.incarnation ?? "",
      });
    } catch {
      this.#missed(health);
      return;
    }
    if (!reply.storeOk) {
      this.#missed(health);
      return;
    }
    if (renew && reply.incarnation === health.last?.incarnation) health.lastGrantAt = sentAt;
    const probe = toProbeReply(reply);
    if (!this.#bootstrapped) {
      health.last = probe;
      health.lastAnswerAt = performance.now();
      health.misses = 0;
      return;
    }
    if (health.state === "unknown") {
      health.last = probe;
      health.lastAnswerAt = performance.now();
      this.#startFill(health, "first answer after the keeper started");
      return;
    }
    const wasLive = this.#liveSet();
    if (health.answered(probe, performance.now()) === "rejoined") {
      this.#changed(`${health.address} rejoins`);
      this.#enqueue({
        kind: "fill",
        backend: health.address,
        wasLive: without(wasLive, health.address),
        attempts: 0,
      });
    }
  }

  #missed(health: BackendHealth): void {
    const wasLive = this.#liveSet();
    if (health.missed(performance.now(), this.timing.missesToDead, this.timing.leaseMs) === "died") {
      this.#changed(`${health.address} died`);
      this.#enqueue({ kind: "repair", backend: health.address, wasLive, attempts: 0 });
    }
  }

  #startFill(health: BackendHealth, reason: string): void {
    const wasLive = without(this.#liveSet(), health.address);
    health.setState("filling", reason);
    this.#changed(`${health.address} filling`);
    this.#enqueue({ kind: "fill", backend: health.address, wasLive, attempts: 0 });
  }

  /**
   * After the first round: a fresh cluster (every backend that answered is
   * empty and not ready) is made ready at once; otherwise ready backends stay
   * ready and the others are filled first.
   */
  #bootstrap(): void {
    const answered = [...this.#health.values()].filter((health) => health.last !== undefined);
    if (answered.length === 0) return;
    let highest = 0n;
    for (const health of answered) if (health.last!.epoch > highest) highest = health.last!.epoch;
    this.#epoch = highest;
    const fresh = answered.every((health) => !health.last!.ready && health.last!.bins === 0);
    this.#bootstrapped = true;
    for (const health of answered) {
      if (fresh || (health.last!.ready && !health.last!.needsFill)) {
        health.setState("ready", fresh ? "fresh cluster" : "ready before this keeper started");
        if (fresh) void this.#grant(health, true);
      } else {
        this.#startFill(health, "not ready when this keeper started");
      }
    }
    this.#changed(fresh ? "bootstrapped a fresh cluster" : "keeper started");
  }

  /** Grants readiness now (after a fill, or at bootstrap), to the incarnation last seen. */
  async #grant(health: BackendHealth, filled: boolean): Promise<void> {
    const sentAt = performance.now();
    try {
      await this.#heartbeat(health.address, {
        readiness: "READINESS_READY",
        leaseMs: String(this.timing.leaseMs),
        incarnation: health.last?.incarnation ?? "",
        filled,
      });
      health.lastGrantAt = sentAt;
    } catch (error) {
      this.#logger.warn(
        { backend: health.address, err: (error as Error).message },
        "grant of readiness failed",
      );
    }
  }

  #enqueue(job: RepairJob): void {
    this.#jobs.push(job);
    void this.#runJobs();
  }

  async #runJobs(): Promise<void> {
    if (this.#running) return;
    while (!this.#stopped) {
      const job = this.#jobs.shift();
      if (!job) return;
      const progress: CopyProgress = { entriesCopied: 0, tasksDone: 0, tasksTotal: 0 };
      this.#running = { job, startedAt: performance.now(), progress };
      try {
        const done = await this.#runJob(job, progress);
        if (!done && !this.#stopped) {
          await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
          this.#jobs.push({ ...job, attempts: job.attempts + 1 });
        }
      } catch (error) {
        this.#logger.error({ err: error, job: job.kind, backend: job.backend }, "repair failed; will retry");
        this.#jobs.push({ ...job, attempts: job.attempts + 1 });
      } finally {
        this.#running = undefined;
      }
    }
  }

  /** Returns false when it must be retried. */
  async #runJob(job: RepairJob, progress: CopyProgress): Promise<boolean> {
    const health = this.#health.get(job.backend)!;
    if (job.kind === "fill" && health.state !== "filling") return true;
    const startedAt = performance.now();
    await this.#fence();
    const isLive = this.#liveSet();
    const tasks = planCopies(
      this.ring,
      (id) => job.wasLive.has(id),
      (id) => isLive.has(id),
    ).filter((task) => job.kind === "repair" || task.target === job.backend);
    progress.tasksTotal = tasks.length;
    this.#logger.info(
      { job: job.kind, backend: job.backend, tasks: tasks.length, attempt: job.attempts },
      job.kind === "repair" ? "repair started" : "fill started",
    );
    let complete = true;
    for (const task of tasks) {
      if (!this.#isLive(task.target)) continue;
      const copied = await copyTask(task, {
        channel: (address) => this.#channels.get(address)!,
        epoch: () => this.#epoch,
        batchSize: this.timing.copyBatchSize,
        logger: this.#logger,
        progress,
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
    if (!complete) return false;
    if (job.kind === "fill" && health.state === "filling") {
      await this.#grant(health, true);
      health.setState("ready", "filled");
      this.#changed(`${job.backend} ready`);
      await this.#dropReleased(job.wasLive);
    }
    const ms = Math.round(performance.now() - startedAt);
    this.#completed.push({ kind: job.kind, backend: job.backend, entries: progress.entriesCopied, ms });
    this.#logger.info(
      { job: job.kind, backend: job.backend, entries: progress.entriesCopied, ms },
      "repair finished",
    );
    return true;
  }

  /**
   * After a rejoin, the backends that stood in for the returning one hold
   * stretches they are no longer replicas of: drop them, now that the new
   * holder has every entry. Planned against the view as it is now, so a
   * stretch that became theirs again meanwhile is kept.
   */
  async #dropReleased(wasLive: ReadonlySet<string>): Promise<void> {
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
          "drop failed; the extra copy stays",
        );
      }
    }
  }

  /** Pushes the current epoch to every live backend, so writers on older views are refused from now on. */
  async #fence(): Promise<void> {
    await Promise.all(
      [...this.#liveSet()].map((address) => this.#heartbeat(address, {}).catch(() => undefined)),
    );
  }

  /** Reads every live backend's clock and raises the others to the largest. */
  async #clockSyncRound(): Promise<void> {
    if (this.#syncing || this.#stopped || !this.#bootstrapped) return;
    this.#syncing = true;
    try {
      const live = [...this.#liveSet()];
      const clocks = await Promise.all(
        live.map((address) =>
          this.#heartbeat(address, {}).then(
            (reply) => BigInt(reply.clock),
            () => undefined,
          ),
        ),
      );
      let highest = 0n;
      for (const clock of clocks) if (clock !== undefined && clock > highest) highest = clock;
      await Promise.all(
        live.map((address, i) =>
          clocks[i] !== undefined && clocks[i]! < highest
            ? this.#heartbeat(address, { clockFloor: bigintToWire(highest) }).catch(() => undefined)
            : undefined,
        ),
      );
    } finally {
      this.#syncing = false;
    }
  }
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
