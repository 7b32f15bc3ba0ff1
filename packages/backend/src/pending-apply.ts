// An apply request (or a claim, which must see every apply requested before
// it) waiting for its event-loop turn's script call (redis-engine.ts), and how
// one too large for a single call is split.
import type { ApplyOutcome, Entry } from "@binring/core";

export interface PendingApply {
  entries: readonly Entry[];
  decides: boolean;
  limited: boolean;
  resolve(outcomes: ApplyOutcome[]): void;
  reject(error: unknown): void;
}

/** A claim's lookup of the stamp recorded for a write (lua/apply-entries.lua `claim`). */
export interface PendingClaim {
  /** The write's writer id and seq as a stamp's last 24 characters. */
  write: string;
  resolve(stamp: string | null): void;
  reject(error: unknown): void;
}

export type PendingStoreCall = PendingApply | PendingClaim;

/** Most entries in one script call: bounds how long one call holds Redis. */
export const ENTRIES_PER_SCRIPT_CALL = 1000;

/**
 * A request with more entries than one script call takes (`most`; say, a
 * repair copying a bin with a long list) as parts that do, resolved together: one call with all
 * of them would pass the script more arguments than a JavaScript call can
 * spread ("Maximum call stack size exceeded" past ~20,000 entries), and that
 * bin could never be copied. Entries are idempotent, so the parts need not be
 * applied atomically.
 */
export function splitApply(request: PendingStoreCall, most = ENTRIES_PER_SCRIPT_CALL): PendingStoreCall[] {
  if (!("entries" in request) || request.entries.length <= most) return [request];
  const parts: PendingApply[] = [];
  const outcomes: Promise<ApplyOutcome[]>[] = [];
  for (let i = 0; i < request.entries.length; i += most) {
    outcomes.push(
      new Promise((resolve, reject) =>
        parts.push({
          entries: request.entries.slice(i, i + most),
          decides: request.decides,
          limited: request.limited,
          resolve,
          reject,
        }),
      ),
    );
  }
  Promise.all(outcomes).then((all) => request.resolve(all.flat()), request.reject);
  return parts;
}
