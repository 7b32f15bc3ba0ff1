// Time as a keeper sees it. Every part of a keeper reads time and waits only
// through this, so takeover, leases and fills run on a fake clock in tests.

export interface KeeperClock {
  /** Monotonic milliseconds: leases, misses and silences are measured on it. */
  now(): number;
  /** Wall-clock milliseconds, for what operators read (intent times and ids). */
  wallNow(): number;
  /** Resolves after `ms`. */
  sleep(ms: number): Promise<void>;
  /** Runs `run` every `ms` until the returned function is called. */
  every(ms: number, run: () => void): () => void;
}

export const systemClock: KeeperClock = {
  now: () => performance.now(),
  wallNow: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  every(ms, run) {
    const timer = setInterval(run, ms);
    return () => clearInterval(timer);
  },
};
