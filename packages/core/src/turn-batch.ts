// Work queued during one event-loop turn, by any number of callers, handed
// over as one batch when the turn ends (setImmediate). This is how binring
// amortises per-message costs: the client's operations to one backend travel
// as one message, and a backend's entries and reads each reach Redis as one
// call, without holding anything back past the current turn.
export class TurnBatch<T> {
  #items: T[] = [];
  #scheduled = false;

  constructor(private readonly flush: (items: T[]) => void) {}

  add(item: T): void {
    this.#items.push(item);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const items = this.take();
      if (items.length > 0) this.flush(items);
    });
  }

  /** Removes and returns what is queued (for instance to fail it when closing). */
  take(): T[] {
    const items = this.#items;
    this.#items = [];
    return items;
  }
}
