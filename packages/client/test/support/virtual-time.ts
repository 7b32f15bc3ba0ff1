// Virtual time for the paths: sleeping costs no real time. Whenever every
// pending promise job has run (nothing can happen until some sleeper wakes),
// time jumps to the earliest sleeper's wake-up and wakes it.
import type { WallTime } from "../../src/wall-time.js";

interface Sleeper {
  at: number;
  wake(): void;
}

export class VirtualTime implements WallTime {
  #now = 0;
  readonly #sleepers: Sleeper[] = [];
  #jumpScheduled = false;

  now(): number {
    return this.#now;
  }

  sleep(ms: number): Promise<void> {
    return this.timer(ms).done;
  }

  /** A sleep that can be called off: time then no longer jumps to it. */
  timer(ms: number): { done: Promise<void>; cancel(): void } {
    let sleeper: Sleeper | undefined;
    const done = new Promise<void>((wake) => {
      sleeper = { at: this.#now + ms, wake };
      this.#sleepers.push(sleeper);
      this.#scheduleJump();
    });
    return {
      done,
      cancel: () => {
        const at = this.#sleepers.indexOf(sleeper!);
        if (at >= 0) this.#sleepers.splice(at, 1);
      },
    };
  }

  /** setImmediate runs once the microtask queue is empty: every awaiting chain has gone as far as it can. */
  #scheduleJump(): void {
    if (this.#jumpScheduled) return;
    this.#jumpScheduled = true;
    setImmediate(() => {
      this.#jumpScheduled = false;
      // Stable: sleepers due at the same time wake in the order they fell asleep.
      this.#sleepers.sort((a, b) => a.at - b.at);
      const next = this.#sleepers[0];
      if (!next) return;
      this.#now = Math.max(this.#now, next.at);
      while (this.#sleepers[0] && this.#sleepers[0].at <= this.#now) this.#sleepers.shift()!.wake();
      if (this.#sleepers.length > 0) this.#scheduleJump();
    });
  }
}
