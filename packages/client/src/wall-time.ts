// Time as the read and write paths see it: when an operation's deadline
// passes, and how long they pause between rounds. Injected, so tests of the
// paths run on virtual time instead of waiting.

export interface WallTime {
  /** Milliseconds since some fixed origin; only differences matter. */
  now(): number;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

export const systemTime: WallTime = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Pause between rounds when no replica could serve, growing to this cap. */
const MAX_RETRY_PAUSE_MS = 200;

/** The pause before round `attempt + 1`: 10 ms, doubling, at most MAX_RETRY_PAUSE_MS. */
export function retryPauseMs(attempt: number): number {
  return Math.min(10 * 2 ** attempt, MAX_RETRY_PAUSE_MS);
}
