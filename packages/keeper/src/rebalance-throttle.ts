// Paces a keeper's rebalancing copies — the fills of backends that join or
// return, the copies off a backend being decommissioned — to a rate in bytes
// per second, so moving a share of the data does not crowd out clients'
// calls. Repairs after a death are never held to it: they restore copies a
// bin has lost. One throttle per keeper, shared by its copies.
import type { KeeperClock } from "./keeper-clock.js";

/** How far ahead of the rate a copy may run before it waits: one batch is never held back. */
const BURST_MS = 250;

export class RebalanceThrottle {
  /** When the bytes taken so far will have been sent at the rate. */
  #paidUntil = 0;

  constructor(
    private readonly clock: KeeperClock,
    private readonly bytesPerSecond: number,
  ) {}

  /**
   * Takes `bytes` from the budget: resolves when they may be sent, which is
   * at once while the copies so far are less than the burst ahead of the rate.
   */
  async take(bytes: number): Promise<void> {
    const now = this.clock.now();
    const startAt = Math.max(this.#paidUntil - BURST_MS, now);
    this.#paidUntil = Math.max(this.#paidUntil, now) + (bytes * 1000) / this.bytesPerSecond;
    if (startAt > now) await this.clock.sleep(startAt - now);
  }
}
