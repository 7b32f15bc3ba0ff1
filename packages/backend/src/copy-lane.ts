// Copies (repair and fill, sent by keepers) reach Redis behind client writes.
// A script call holds Redis while it runs, and a keeper keeps several copy
// batches in flight to a target: sent as they arrive, like client writes, they
// queue thousands of entries in Redis ahead of every client write to that
// backend. The lane sends one bounded chunk at a time, so a client write
// waits behind at most one chunk of copies. A claim requested while copies
// wait here goes behind them: it must see every apply requested before it
// (HAZARDS.md 20).
import { type PendingClaim, type PendingStoreCall, splitApply } from "./pending-apply.js";

/** Most copied entries in one script call: a few milliseconds of Redis's time. */
export const COPY_ENTRIES_PER_CALL = 200;

export class CopyLane {
  readonly #waiting: PendingStoreCall[] = [];
  #running = false;

  /**
   * @param send applies one chunk; never rejects (it rejects the chunk's calls)
   * @param release hands over a claim once every copy requested before it is applied
   */
  constructor(
    private readonly send: (chunk: PendingStoreCall[]) => Promise<void>,
    private readonly release: (claim: PendingClaim) => void,
  ) {}

  /** Whether copies are waiting or being applied: a claim must then join the lane. */
  get busy(): boolean {
    return this.#running;
  }

  add(call: PendingStoreCall): void {
    this.#waiting.push(...splitApply(call, COPY_ENTRIES_PER_CALL));
    if (!this.#running) void this.#run();
  }

  async #run(): Promise<void> {
    this.#running = true;
    while (this.#waiting.length > 0) {
      const head = this.#waiting[0]!;
      if (!("entries" in head)) {
        this.#waiting.shift();
        this.release(head);
        continue;
      }
      await this.send(this.#nextChunk());
    }
    this.#running = false;
  }

  /** Copies from the head of the lane up to COPY_ENTRIES_PER_CALL, stopping at a claim. */
  #nextChunk(): PendingStoreCall[] {
    const chunk: PendingStoreCall[] = [];
    let size = 0;
    for (let head = this.#waiting[0]; head && "entries" in head; head = this.#waiting[0]) {
      if (chunk.length > 0 && size + head.entries.length > COPY_ENTRIES_PER_CALL) break;
      chunk.push(head);
      size += head.entries.length;
      this.#waiting.shift();
    }
    return chunk;
  }
}
