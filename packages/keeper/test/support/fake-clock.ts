// A clock that moves only when a test advances it. Timers and sleeps fire in
// time order, and after each one every promise it set off settles before the
// next, so a keeper's loops interleave as they would, but deterministically.
import type { KeeperClock } from "../../src/keeper-clock.js";

interface Timer {
  at: number;
  run: () => void;
  every?: number;
  cancelled: boolean;
}

/** Lets every pending promise and I/O callback run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

export class FakeClock implements KeeperClock {
  #now = 1000;
  #timers: Timer[] = [];

  now(): number {
    return this.#now;
  }

  wallNow(): number {
    return 1_800_000_000_000 + this.#now;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.#add({ at: this.#now + ms, run: resolve, cancelled: false }));
  }

  every(ms: number, run: () => void): () => void {
    const timer: Timer = { at: this.#now + ms, run, every: ms, cancelled: false };
    this.#add(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  /** Moves time on by `ms`, firing every timer due on the way, each at its own time. */
  async advance(ms: number): Promise<void> {
    const until = this.#now + ms;
    await settle();
    for (;;) {
      this.#timers = this.#timers.filter((timer) => !timer.cancelled);
      const next = this.#timers.reduce<Timer | undefined>(
        (earliest, timer) => (earliest === undefined || timer.at < earliest.at ? timer : earliest),
        undefined,
      );
      if (!next || next.at > until) break;
      this.#now = next.at;
      if (next.every === undefined) this.#timers.splice(this.#timers.indexOf(next), 1);
      else next.at += next.every;
      next.run();
      await settle();
    }
    this.#now = until;
    await settle();
  }

  #add(timer: Timer): void {
    this.#timers.push(timer);
  }
}
