// Drops tombstones once they are older than the tombstone TTL, in the
// background, so a store that keeps deleting new keys or removing new list
// values stays bounded (HAZARDS.md 10). Why that is safe is in
// lua/sweep-tombstones.lua and docs/ARCHITECTURE.md ("Tombstones").
import { setImmediate as yieldToIo } from "node:timers/promises";
import type { Logger } from "pino";
import type { StoreEngine } from "./store-engine.js";

/** Tombstones looked at per store call: bounds how long one call holds Redis. */
const SWEEP_BATCH = 1000;
/** Sweeps run every quarter TTL, within these bounds. */
const MIN_SWEEP_INTERVAL_MS = 50;
const MAX_SWEEP_INTERVAL_MS = 60_000;

export class TombstoneSweeper {
  readonly #intervalMs: number;
  /** Set while started; cleared by stop(). */
  #timer: NodeJS.Timeout | undefined;
  /** The sweep running now, if any: stop() waits for it. */
  #running: Promise<number> | undefined;

  constructor(
    private readonly engine: StoreEngine,
    private readonly ttlMs: number,
    private readonly logger: Logger,
  ) {
    this.#intervalMs = Math.min(Math.max(ttlMs / 4, MIN_SWEEP_INTERVAL_MS), MAX_SWEEP_INTERVAL_MS);
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.#running ??= this.sweep().finally(() => {
        this.#running = undefined;
      });
    }, this.#intervalMs);
    this.#timer.unref();
  }

  /** Drops every tombstone older than the TTL now; returns how many went. Never throws. */
  async sweep(): Promise<number> {
    const startedAt = performance.now();
    let dropped = 0;
    try {
      for (;;) {
        const batch = await this.engine.sweepTombstones(this.ttlMs, SWEEP_BATCH);
        dropped += batch.dropped;
        // Stopped: the rest waits for the next start. Between batches, let calls in (the memory engine never waits).
        if (batch.examined < SWEEP_BATCH || this.#timer === undefined) break;
        await yieldToIo();
      }
    } catch (error) {
      this.logger.warn({ err: (error as Error).message, dropped }, "tombstone sweep failed; retried later");
    }
    if (dropped > 0) {
      const ms = Math.round(performance.now() - startedAt);
      this.logger.info({ dropped, ttlMs: this.ttlMs, ms }, "tombstones swept");
    }
    return dropped;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }
}
