// Work queued during one event-loop turn, by any number of callers, handed
// over as one batch when the turn ends (setImmediate). This is how binring
// amortises per-message costs: the client's operations to one backend travel
// as one message, and a backend's entries and reads each reach Redis as one
// call, without holding anything back past the current turn.
//
// A consumer that is still busy with its last batch may hold the next one
// back (`hold`), the way Nagle's algorithm holds small TCP segments while one
// is unacknowledged: what arrives meanwhile joins the held batch, so batches
// grow with the load instead of staying one turn's worth. The consumer calls
// `resume()` when it can take more; `maxHoldMs` bounds the wait when it never
// does (a stalled peer).
export interface TurnBatchOptions {
  /** Whether the next batch must wait: checked when a turn ends. @default never */
  hold?: () => boolean;
  /** Longest a held batch waits for `resume()`. @default 50 */
  maxHoldMs?: number;
}

export class TurnBatch<T> {
  #items: T[] = [];
  #scheduled = false;
  #holdTimer: NodeJS.Timeout | undefined;
  readonly #hold: () => boolean;
  readonly #maxHoldMs: number;

  constructor(
    private readonly flush: (items: T[]) => void,
    options: TurnBatchOptions = {},
  ) {
    this.#hold = options.hold ?? (() => false);
    this.#maxHoldMs = options.maxHoldMs ?? 50;
  }

  add(item: T): void {
    this.#items.push(item);
    this.#atTurnEnd();
  }

  /** The consumer can take more: what is held goes when this turn ends. */
  resume(): void {
    if (this.#items.length > 0) this.#atTurnEnd();
  }

  /** Removes and returns what is queued (for instance to fail it when closing). */
  take(): T[] {
    const items = this.#items;
    this.#items = [];
    clearTimeout(this.#holdTimer);
    this.#holdTimer = undefined;
    return items;
  }

  #atTurnEnd(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#items.length === 0) return;
      if (!this.#hold()) this.#handOver();
      else
        this.#holdTimer ??= setTimeout(() => {
          this.#holdTimer = undefined;
          this.#handOver();
        }, this.#maxHoldMs);
    });
  }

  #handOver(): void {
    const items = this.take();
    if (items.length > 0) this.flush(items);
  }
}
