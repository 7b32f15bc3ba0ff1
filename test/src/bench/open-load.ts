// Open-loop write load: writes are issued at a constant rate whether or not
// earlier ones completed (a stalled system does not slow the offered load),
// and latency is measured from when a write was due, not when it was sent,
// so a stall is not hidden by coordinated omission. Every write sets its own
// key, so each acknowledged write can be read back afterwards.
import type { SystemClient } from "./systems.js";

export interface WriteSample {
  /** When the write was due (performance.now() ms). */
  dueMs: number;
  doneMs: number;
  ok: boolean;
}

const TICK_MS = 2;

export class OpenLoad {
  readonly samples: WriteSample[] = [];
  /** Acknowledged writes: key -> value. */
  readonly acknowledged = new Map<string, string>();
  /** Error message (ports and numbers blanked) -> count. */
  readonly errors = new Map<string, number>();
  #issued = 0;
  #startedMs = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #inFlight = new Set<Promise<void>>();

  constructor(
    private readonly client: SystemClient,
    private readonly ratePerSecond: number,
    private readonly keyPrefix: string,
  ) {}

  start(): void {
    this.#startedMs = performance.now();
    this.#timer = setInterval(() => this.#issueDue(), TICK_MS);
  }

  #issueDue(): void {
    const due = Math.floor(((performance.now() - this.#startedMs) * this.ratePerSecond) / 1000);
    while (this.#issued < due) this.#write(this.#issued++);
  }

  #write(i: number): void {
    const dueMs = this.#startedMs + (i * 1000) / this.ratePerSecond;
    const key = `${this.keyPrefix}${i}`;
    const value = `value-${i}`;
    const write: Promise<void> = this.client.set(key, value).then(
      () => {
        this.samples.push({ dueMs, doneMs: performance.now(), ok: true });
        this.acknowledged.set(key, value);
        this.#inFlight.delete(write);
      },
      (error: unknown) => {
        this.samples.push({ dueMs, doneMs: performance.now(), ok: false });
        const kind = String((error as Error).message ?? error)
          .replace(/\d+/g, "N")
          .slice(0, 120);
        this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
        this.#inFlight.delete(write);
      },
    );
    this.#inFlight.add(write);
  }

  /** Stops issuing and waits for every write in flight to complete or fail. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all(this.#inFlight);
  }

  /** Longest time between consecutive acknowledgements (and from the start to the first one). */
  longestGapMs(): number {
    const acks = this.samples
      .filter((s) => s.ok)
      .map((s) => s.doneMs)
      .sort((a, b) => a - b);
    let longest = 0;
    let previous = this.#startedMs;
    for (const at of acks) {
      longest = Math.max(longest, at - previous);
      previous = at;
    }
    return longest;
  }
}
