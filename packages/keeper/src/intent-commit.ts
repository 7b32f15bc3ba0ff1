// The commit point of a state change that needs copies (HAZARDS.md 8): a
// change is decided, its intent recorded on the log's replicas, and only then
// published and its work queued. A change that could not be recorded stays
// decided and is tried again next round; one handed over while it was being
// recorded is marked done at once (never published, so no work is owed).
import { randomUUID } from "node:crypto";
import type { HealthState } from "./backend-health.js";
import type { Intent } from "./intent-log.js";
import type { KeeperState } from "./keeper-state.js";
import type { RepairJob } from "./repair-job.js";

export class IntentCommit {
  /** State changes decided but not yet committed: their intent is still to be recorded. */
  readonly #uncommitted = new Map<string, RepairJob>();

  constructor(
    private readonly state: KeeperState,
    /** Queues committed work. */
    private readonly enqueue: (job: RepairJob) => void,
    /** Beats the peers: a change was published. */
    private readonly beat: () => void,
  ) {}

  /** Backends whose change is decided but not committed yet. */
  get pending(): readonly RepairJob[] {
    return [...this.#uncommitted.values()];
  }

  has(backend: string): boolean {
    return this.#uncommitted.has(backend);
  }

  /** A change that needs copies: committed (intent recorded) before it is published. */
  decide(kind: RepairJob["kind"], backend: string, wasLive: ReadonlySet<string>): void {
    this.#uncommitted.set(backend, {
      id: `${this.state.clock.wallNow().toString(36)}-${randomUUID().slice(0, 8)}`,
      kind,
      backend,
      wasLive,
      attempts: 0,
      recovered: false,
    });
  }

  /** The backend left this slice: its undecided change is its new owner's to make. */
  forget(backend: string): void {
    this.#uncommitted.delete(backend);
  }

  /** Records the intents of decided changes, then publishes the changes and queues their work. */
  async commit(): Promise<void> {
    const { state } = this;
    for (const [backend, job] of [...this.#uncommitted]) {
      const intent: Intent = {
        id: job.id,
        kind: job.kind,
        backend,
        wasLive: [...job.wasLive],
        by: state.self,
        at: state.clock.wallNow(),
      };
      const targets = state.logTargets();
      const recorded = await state.intents.record(intent, targets);
      if (this.#uncommitted.get(backend) !== job) {
        if (recorded > 0) await state.intents.complete(job.id, targets);
        continue;
      }
      if (recorded === 0) {
        state.logger.warn({ backend, job: job.kind }, "could not record the intent; will retry");
        continue;
      }
      this.#uncommitted.delete(backend);
      this.publish(backend, `${job.kind} committed`, job.kind === "repair");
      this.enqueue(job);
    }
  }

  /**
   * Publishes this keeper's state of one of its backends, under a new epoch.
   * Whether a dead one is still being repaired stays as published unless told.
   */
  publish(
    backend: string,
    reason: string,
    repairing = this.state.view.get(backend)?.repairing ?? false,
  ): void {
    const health = this.state.healthOf(backend);
    const published = publishedState(health.state);
    const epoch = this.state.view.publish(backend, published, health.knownIncarnation ?? "", repairing);
    this.state.logger.info(
      {
        epoch: epoch.toString(),
        backend,
        state: published,
        repairing: published === "dead" && repairing,
        reason,
      },
      "view changed",
    );
    this.beat();
  }

  /** Publishes every backend of the slice whose state moved without needing copies (bootstrap, a new incarnation). */
  publishChanges(): void {
    for (const backend of this.state.slice) {
      const health = this.state.healthOf(backend);
      if (this.#uncommitted.has(backend) || health.state === "unknown") continue;
      const published = this.state.view.get(backend);
      if (
        published?.state !== publishedState(health.state) ||
        published.incarnation !== (health.knownIncarnation ?? "")
      ) {
        this.publish(backend, "state changed");
      }
    }
  }
}

/** Suspect is this keeper's doubt, not a change of placement: the view shows it as ready. */
function publishedState(state: HealthState): HealthState {
  return state === "suspect" ? "ready" : state;
}
