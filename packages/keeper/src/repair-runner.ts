// Runs the copying work a keeper owes, one job at a time: the repair after a
// death (re-copy every stretch the dead backend held onto its stand-ins) and
// the fill of a backend that came back (copy its stretches onto it, grant it
// readiness, then drop the stand-ins' copies). Before copying it fences: every
// live keeper merges this view and every live backend refuses older views, so
// no writer keeps the old replica set while the copy runs. A job whose backend
// leaves this slice stops; its new owner finishes it from the intent log.
import type { BackendHealth } from "./backend-health.js";
import type { CopyProgress } from "./copier.js";
import { forEachConcurrently } from "./for-each-concurrently.js";
import type { RepairCounters } from "./keeper-metrics.js";
import type { KeeperState } from "./keeper-state.js";
import type { CompletedRepair, RepairJob, RunningRepair } from "./repair-job.js";
import { planCopies, planDrops } from "./repair-plan.js";

const RETRY_PAUSE_MS = 1000;
/** Completed jobs kept for status. */
const COMPLETED_KEPT = 10;
/** How long one Drop of a stand-in's released stretches may take. */
const DROP_TIMEOUT_MS = 60_000;
/**
 * Copy tasks of a death's repair run at once: each task pays round trips of
 * its own before its first entry lands and after its last (opening the
 * sources' scans, the last applies), which overlap.
 */
const REPAIR_TASKS_IN_FLIGHT = 4;
/**
 * Copy tasks of a paced copy (a fill, a decommission) run at once, their
 * sources sharing the rate: two keep it while one waits on its round trips.
 * Each reading at the whole rate, tasks at once read and applied in bursts
 * past it that raised clients' latency (bench/results/NOTES.md).
 */
const PACED_TASKS_IN_FLIGHT = 2;
/**
 * Former holders dropping what they gave up at once. Each drop is paced by its
 * backend to a quarter of its store's time (backend drop-pace.ts); one at a
 * time, an add's six held the end of its fill for seconds under load.
 */
const DROPS_IN_FLIGHT = 2;

export interface RepairHooks {
  /** The intent log read in progress, if any: no job runs before it ends. */
  recoveryRead(): Promise<void> | undefined;
  /** Grants readiness to one incarnation; whether the backend took it. */
  grant(health: BackendHealth, filled: boolean, incarnation: string): Promise<boolean>;
  /** Publishes the backend's state under a new epoch; `repairing` as published unless given. */
  publish(backend: string, reason: string, repairing?: boolean): void;
  /** Beats one peer; whether it answered (after merging our view). */
  beatPeer(peer: string): Promise<boolean>;
}

type Outcome = "done" | "retry" | "handed over";

export class RepairRunner {
  #jobs: RepairJob[] = [];
  #running: RunningRepair | undefined;
  #looping = false;
  readonly #completed: CompletedRepair[] = [];

  constructor(
    private readonly state: KeeperState,
    private readonly hooks: RepairHooks,
    private readonly counters: RepairCounters,
  ) {}

  get queued(): readonly RepairJob[] {
    return this.#jobs;
  }

  get running(): RunningRepair | undefined {
    return this.#running;
  }

  get completed(): readonly CompletedRepair[] {
    return this.#completed.slice(-COMPLETED_KEPT);
  }

  queuedIds(): Set<string> {
    return new Set([...this.#jobs.map((job) => job.id), ...(this.#running ? [this.#running.job.id] : [])]);
  }

  enqueue(job: RepairJob): void {
    this.#jobs.push(job);
    void this.run();
  }

  putFirst(jobs: RepairJob[]): void {
    this.#jobs.unshift(...jobs);
  }

  /** Drops queued jobs of backends no longer in the slice. */
  keepOnly(slice: ReadonlySet<string>): void {
    this.#jobs = this.#jobs.filter((job) => slice.has(job.backend));
  }

  /** Runs queued jobs until the queue is empty; a second call while it runs does nothing. */
  async run(): Promise<void> {
    if (this.#looping) return;
    this.#looping = true;
    const { state } = this;
    try {
      while (!state.stopped) {
        const reading = this.hooks.recoveryRead();
        if (reading) await reading;
        const job = this.#jobs.shift();
        if (!job) return;
        if (!state.slice.has(job.backend)) continue;
        const busy = state.peers.workingOn(job.backend, state.clock.now());
        if (busy) {
          // A hand-back in progress: the previous owner still runs this backend's work. Never both at once.
          state.logger.info(
            { backend: job.backend, peer: busy },
            "waiting for a peer to finish its work first",
          );
          this.#jobs.push(job);
          await state.clock.sleep(RETRY_PAUSE_MS);
          continue;
        }
        const progress: CopyProgress = {
          entriesCopied: 0,
          bytesCopied: 0,
          tasksDone: 0,
          tasksTotal: 0,
          duplicatesSkipped: 0,
        };
        this.#running = { job, startedAt: state.clock.now(), progress };
        this.counters.started(job.kind);
        try {
          const outcome = await this.#runJob(job, progress);
          if (outcome === "done") this.#repaired(job);
          if (outcome === "retry" && !state.stopped) {
            await state.clock.sleep(RETRY_PAUSE_MS);
            this.#jobs.push({ ...job, attempts: job.attempts + 1 });
          }
        } catch (error) {
          state.logger.error(
            { err: error, job: job.kind, backend: job.backend },
            "repair failed; will retry",
          );
          this.#jobs.push({ ...job, attempts: job.attempts + 1 });
        } finally {
          this.counters.copied(job.kind, progress.entriesCopied, progress.bytesCopied);
          this.#running = undefined;
        }
      }
    } finally {
      this.#looping = false;
    }
  }

  async #runJob(job: RepairJob, progress: CopyProgress): Promise<Outcome> {
    const { state } = this;
    const health = state.healthOf(job.backend);
    const stillMine = () => !state.stopped && state.slice.has(job.backend);
    if (job.recovered) {
      const log = await state.intents.read(state.answering());
      if (log.done.has(job.id)) return "done";
    }
    if (job.kind === "fill" && health.state !== "filling") {
      // Filled already (by an earlier attempt, or by a keeper that died since): only releases may be left.
      const filled = health.state === "ready" || health.state === "suspect";
      if (filled && !(await this.#dropReleased(job.wasLive))) return "retry";
      await this.#finish(job, progress, state.clock.now());
      return "done";
    }
    const startedAt = state.clock.now();
    if (!(await this.#fence())) return "retry";
    // Seen before the first copy. If the backend loses entries from here on, it is another
    // incarnation by the time the fill ends and refuses the grant below. If it is declared dead
    // (paused, say, and back with the same incarnation), writes were acknowledged without it, in
    // bins this fill may have copied already: the fill does not count either.
    const filling = health.last?.incarnation;
    // That incarnation's store is to be emptied first (the prober does it): copies made now would go with it.
    if (job.kind === "fill" && health.last !== undefined && health.mustBeEmptied(health.last)) return "retry";
    const deaths = health.deaths;
    const isLive = state.liveSet();
    const tasks = planCopies(
      state.ring,
      (id) => job.wasLive.has(id),
      (id) => isLive.has(id),
    ).filter((task) => job.kind === "repair" || task.target === job.backend);
    progress.tasksTotal = tasks.length;
    const about = { job: job.kind, id: job.id, backend: job.backend };
    state.logger.info(
      { ...about, tasks: tasks.length, attempt: job.attempts, recovered: job.recovered },
      job.kind === "repair" ? "repair started" : "fill started",
    );
    // A death's repair restores lost copies at full speed; moving data to or off a member is paced.
    const rebalance = job.kind === "fill" || state.isLeaving(job.backend);
    let complete = true;
    const tasksAtOnce = rebalance ? PACED_TASKS_IN_FLIGHT : REPAIR_TASKS_IN_FLIGHT;
    await forEachConcurrently(tasks, tasksAtOnce, async (task) => {
      if (!stillMine()) return;
      if (!isLive.has(task.target) || state.view.get(task.target)?.state === "dead") return;
      const copied = await state.copy(task, {
        progress,
        stop: () => !stillMine(),
        rebalance,
        tasksAtOnce,
      });
      if (copied) progress.tasksDone++;
      else complete = false;
      state.logger.info(
        {
          ...about,
          target: task.target,
          done: progress.tasksDone,
          of: tasks.length,
          entries: progress.entriesCopied,
        },
        "repair progress",
      );
    });
    if (!stillMine()) {
      state.logger.info(about, "backend handed over; its new owner finishes the work from the log");
      return "handed over";
    }
    if (!complete) return "retry";
    if (job.kind === "fill" && health.state === "filling") {
      if (health.deaths !== deaths) {
        state.logger.warn(
          { backend: job.backend },
          "backend was declared dead during its fill; filling again",
        );
        return "retry";
      }
      // Undefined: never heard from, so a grant could name no incarnation (an empty one means any).
      if (filling === undefined || !(await this.hooks.grant(health, true, filling))) {
        state.logger.warn(
          { backend: job.backend, incarnation: filling },
          "backend did not take readiness after the fill (it lost entries during it, or did not answer); filling again",
        );
        return "retry";
      }
      health.apply("filled");
      this.hooks.publish(job.backend, "filled");
      if (!(await this.#dropReleased(job.wasLive))) return "retry";
    }
    await this.#finish(job, progress, startedAt);
    return "done";
  }

  /**
   * A dead backend's bins are on its stand-ins now: clients may read them
   * there. Also when the log showed the repair done by a keeper that died
   * before it could say so.
   */
  #repaired(job: RepairJob): void {
    const { state } = this;
    if (job.kind !== "repair" || state.stopped || !state.slice.has(job.backend)) return;
    if (state.view.get(job.backend)?.repairing) this.hooks.publish(job.backend, "repaired", false);
  }

  /** Marks the intent done in the log, so no keeper redoes it. */
  async #finish(job: RepairJob, progress: CopyProgress, startedAt: number): Promise<void> {
    const { state } = this;
    const recorded = await state.intents.complete(job.id, state.logTargets());
    if (recorded === 0)
      state.logger.warn({ id: job.id }, "could not mark the intent done; a successor may redo it");
    const done: CompletedRepair = {
      id: job.id,
      kind: job.kind,
      backend: job.backend,
      entries: progress.entriesCopied,
      ms: Math.round(state.clock.now() - startedAt),
      recovered: job.recovered,
    };
    this.#completed.push(done);
    this.counters.finished(job.kind, done.ms / 1000);
    if (this.#completed.length > COMPLETED_KEPT) this.#completed.shift();
    state.logger.info(
      { ...done, job: done.kind, duplicatesSkipped: progress.duplicatesSkipped },
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
    const { state } = this;
    let dropped = true;
    const isLive = state.liveSet();
    const drops = planDrops(
      state.ring,
      (id) => wasLive.has(id),
      (id) => isLive.has(id),
    );
    await forEachConcurrently(drops, DROPS_IN_FLIGHT, async (drop) => {
      try {
        const bins = await state.ports
          .backend(drop.backend)
          .drop(drop.ranges, state.view.epoch, DROP_TIMEOUT_MS);
        state.logger.info(
          { backend: drop.backend, bins, ranges: drop.ranges.length },
          "dropped bins it no longer holds",
        );
      } catch (error) {
        state.logger.warn(
          { backend: drop.backend, err: (error as Error).message },
          "drop failed; trying again",
        );
        dropped = false;
      }
    });
    return dropped;
  }

  /**
   * Makes sure no writer keeps an older replica set: first every live keeper
   * merges this view (its answer to our beat comes after the merge), so every
   * epoch minted from now on includes our changes; then the epoch is pushed to
   * every live backend, which refuses older views from then on. False when a
   * live keeper or a live backend did not answer (retried until it does, or is
   * declared dead): a backend that missed the epoch still takes writes from a
   * client on the older view — one that skips the backend being filled, say —
   * after the copy has read it.
   */
  async #fence(): Promise<boolean> {
    const { state } = this;
    const answers = await Promise.all(
      state.peers.livePeers(state.clock.now()).map((peer) => this.hooks.beatPeer(peer)),
    );
    if (!answers.every(Boolean)) return false;
    const fenced = await Promise.all(
      [...state.liveSet()].map((address) =>
        state.heartbeat(address, {}).then(
          () => true,
          () => false,
        ),
      ),
    );
    return fenced.every(Boolean);
  }
}
