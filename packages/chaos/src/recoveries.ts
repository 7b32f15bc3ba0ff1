// The pending recoveries of a chaos run's faults: each fault's undo (restart,
// resume, reconnect) runs after the time drawn for it, or at once when the
// run heals everything. One that fails is tried again soon while the chaos
// phase lasts; after that, healing what is left is the caller's job.
import type { Logger } from "pino";

/** A recovery that failed (a loaded machine can take longer than the start timeout) is tried again after this. */
const RETRY_MS = 1000;

export class Recoveries {
  /** key -> its timer and undo, until it has run. */
  readonly #pending = new Map<string, { timer: NodeJS.Timeout; recover: () => Promise<void> }>();
  readonly #inFlight = new Set<Promise<void>>();
  /** Set by runAll(): failed recoveries are no longer retried. */
  #healing = false;

  constructor(private readonly logger: Logger) {}

  /** Runs `recover` after `ms`, or at once when runAll() comes first. */
  schedule(key: string, ms: number, recover: () => Promise<void>): void {
    this.#pending.set(key, { timer: setTimeout(() => this.#run(key), ms), recover });
  }

  /** Runs every pending recovery now and waits for all of them, retrying none that fails. */
  async runAll(): Promise<void> {
    this.#healing = true;
    for (const key of [...this.#pending.keys()]) this.#run(key);
    await Promise.all(this.#inFlight);
  }

  /** Drops every pending recovery without running it: the run is over. */
  cancel(): void {
    for (const { timer } of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
  }

  #run(key: string): void {
    const entry = this.#pending.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.#pending.delete(key);
    const done = entry.recover().catch((error: unknown) => {
      // The fault is still in force, so what it impairs stays impaired until a retry succeeds.
      this.logger.error({ target: key, err: error }, "recovery failed; retrying");
      if (!this.#healing) this.schedule(key, RETRY_MS, entry.recover);
    });
    this.#inFlight.add(done);
    void done.finally(() => this.#inFlight.delete(done));
  }
}
