// Time as a keeper sees it. Every part of a keeper reads time and waits only
// through this, so takeover, leases and fills run on a fake clock in tests.
import { MAX_TIMER_MS } from "@binring/core";

export interface KeeperClock {
  /** Monotonic milliseconds: leases, misses and silences are measured on it. */
  now(): number;
  /** Wall-clock milliseconds, for what operators read (intent times and ids). */
  wallNow(): number;
  /** Resolves after `ms`, however long. */
  sleep(ms: number): Promise<void>;
  /** Runs `run` every `ms` (at most MAX_TIMER_MS) until the returned function is called. */
  every(ms: number, run: () => void): () => void;
}

export const systemClock: KeeperClock = {
  now: () => performance.now(),
  wallNow: () => Date.now(),
  sleep,
  every(ms, run) {
    const timer = setInterval(run, ms);
    return () => clearInterval(timer);
  },
};

/** A wait longer than one timer takes goes in steps (a throttle at a tiny rate can ask for one). */
async function sleep(ms: number): Promise<void> {
  for (let left = ms; left > 0; left -= MAX_TIMER_MS) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, MAX_TIMER_MS)));
  }
}
