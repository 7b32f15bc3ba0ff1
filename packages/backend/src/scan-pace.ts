// Paces a Scan to the rate its caller asked for: a keeper's rebalancing copy
// asks each source for the rebalance rate. The keeper paces what it applies
// from the sources too, but that alone does not pace the sources:
// the stream's buffers on both sides let a source read a whole copy task from
// its store at once, and three sources doing so together held up every client
// call on them for a few hundred milliseconds at the start of each task
// (bench/results/NOTES.md). So the source itself reads no faster than the rate.
import { MAX_TIMER_MS } from "@binring/core";

/** How far behind the rate a scan may fall and then catch up at full speed: one message is never held back. */
const BURST_MS = 250;

export class ScanPace {
  /** When the bytes sent so far are due at the rate. */
  #paidUntil: number;

  /** `bytesPerSecond` 0: not paced. */
  constructor(
    private readonly bytesPerSecond: number,
    private readonly now: () => number,
  ) {
    this.#paidUntil = now();
  }

  get paced(): boolean {
    return this.bytesPerSecond > 0;
  }

  /**
   * Counts `bytes` as sent; returns the milliseconds to wait before reading
   * on (0: at once), at most MAX_TIMER_MS: past it, `sent(0)` after the wait
   * gives what is left.
   */
  sent(bytes: number): number {
    if (!this.paced) return 0;
    const now = this.now();
    this.#paidUntil = Math.max(this.#paidUntil, now - BURST_MS) + (bytes * 1000) / this.bytesPerSecond;
    return Math.min(MAX_TIMER_MS, Math.max(0, this.#paidUntil - now));
  }
}
