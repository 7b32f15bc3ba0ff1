// Finishing what earlier owners left undone. A keeper that gains backends (a
// takeover, a hand-back, a start) reads the intent log before it does any new
// work for them, and queues their unfinished intents first. Every few rounds
// it reads the log again for its whole slice: an intent recorded by a keeper
// that lost the backend in a race with its successor's first read is finished
// then, not left undone.
import type { KeeperState } from "./keeper-state.js";
import { jobFromIntent, type RepairJob } from "./repair-job.js";

const RETRY_PAUSE_MS = 1000;

export interface RecoveryQueue {
  /** Ids of the jobs queued or running now. */
  queuedIds(): Set<string>;
  /** Puts jobs ahead of every queued one. */
  putFirst(jobs: RepairJob[]): void;
  /** Starts the job loop (it waits for recovery to end). */
  run(): void;
  /** Backends the log owes no work: a repair still published as running is over. */
  settled(backends: string[]): void;
}

export class IntentRecovery {
  /** Backends gained whose unfinished intents have not been read from the log yet. */
  readonly #toRecover = new Set<string>();
  #recovering: Promise<void> | undefined;
  /** The log's size at its last read, for the metrics. */
  lastRead: { intents: number; done: number } | undefined;

  constructor(
    private readonly state: KeeperState,
    private readonly queue: RecoveryQueue,
  ) {}

  get backends(): readonly string[] {
    return [...this.#toRecover];
  }

  /** Resolves when the log read in progress (if any) has ended: no job runs before. */
  get reading(): Promise<void> | undefined {
    return this.#recovering;
  }

  /** Reads the log for these backends before any new work for them. */
  add(backends: Iterable<string>): void {
    for (const backend of backends) this.#toRecover.add(backend);
    this.#recover();
  }

  forget(backend: string): void {
    this.#toRecover.delete(backend);
  }

  #recover(): void {
    if (this.#recovering) return;
    this.#recovering = this.#readAll().finally(() => {
      this.#recovering = undefined;
      this.queue.run();
    });
  }

  async #readAll(): Promise<void> {
    const { state } = this;
    while (this.#toRecover.size > 0 && !state.stopped) {
      const backends = new Set(this.#toRecover);
      try {
        const log = await state.intents.read(state.answering());
        this.lastRead = { intents: log.intents.length, done: log.done.size };
        const unfinished = log.intents
          .filter((intent) => !log.done.has(intent.id) && backends.has(intent.backend))
          .sort((a, b) => a.at - b.at);
        for (const backend of backends) this.#toRecover.delete(backend);
        const queued = this.queue.queuedIds();
        const recovered = unfinished
          .filter((intent) => state.slice.has(intent.backend) && !queued.has(intent.id))
          .map((intent) => jobFromIntent(intent));
        this.queue.putFirst(recovered);
        const owing = new Set(unfinished.map((intent) => intent.backend));
        this.queue.settled([...backends].filter((backend) => !owing.has(backend)));
        if (recovered.length === 0) continue;
        state.logger.info(
          { backends: [...backends], unfinished: recovered.map((job) => `${job.kind} ${job.backend}`) },
          "read the keeper log for the backends taken over",
        );
      } catch (error) {
        state.logger.warn({ err: (error as Error).message }, "keeper log unreadable; will retry");
        await state.clock.sleep(RETRY_PAUSE_MS);
      }
    }
  }
}
