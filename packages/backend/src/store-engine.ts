// What a backend needs from its store. Two engines implement it with the same
// semantics (checked by one conformance suite): Redis, and memory for machines
// without Redis.
import type { ApplyOutcome, Entry, KeyPattern, RingRange, Stamp } from "@binring/core";

/** A string key's winning entry; value "" is a deletion (kept so older entries cannot win). */
export interface StoredString {
  value: string;
  stamp: Stamp;
}

export interface StoreStats {
  bins: number;
  /** string keys with a non-empty value */
  keys: number;
  /** non-empty lists */
  lists: number;
}

/** What one sweepTombstones call did. */
export interface TombstoneSweep {
  /** Tombstones old enough that the call looked at; fewer than its limit means none is left. */
  examined: number;
  /** Those still tombstones, and dropped (the others had been replaced by a value or a newer tombstone). */
  dropped: number;
}

export interface StoreEngine {
  /**
   * Applies entries idempotently, in order; one outcome per entry. `decides`:
   * they come from their writer to a ready backend, so a remove applied here for
   * the first time decides the count this backend reports for it from then on.
   */
  apply(entries: readonly Entry[], decides?: boolean): Promise<ApplyOutcome[]>;
  getString(bin: string, key: string): Promise<StoredString | null>;
  /** Non-empty string keys of the bin matching the pattern, sorted. */
  keys(bin: string, pattern: KeyPattern): Promise<string[]>;
  /** Live list elements in stamp order. */
  getList(bin: string, key: string): Promise<string[]>;
  /** Keys of the bin's non-empty lists matching the pattern, sorted. */
  listKeys(bin: string, pattern: KeyPattern): Promise<string[]>;
  /** Every entry (tombstones included) of the bins whose ring point is in one of the ranges. */
  scan(ranges: readonly RingRange[], batchSize: number): AsyncIterable<Entry[]>;
  /** Deletes every entry of the bins in the ranges; returns how many bins went. */
  drop(ranges: readonly RingRange[]): Promise<number>;
  /**
   * Drops at most `limit` tombstones (deleted string keys, list values'
   * latest removes) stored here more than `ttlMs` ago, oldest first.
   */
  sweepTombstones(ttlMs: number, limit: number): Promise<TombstoneSweep>;
  /** The persisted clock reservation: no clock at or above it was ever handed out. */
  loadClockReservation(): Promise<bigint>;
  /** Persists a larger reservation (never lowers it) and returns the one stored. */
  raiseClockReservation(reservation: bigint): Promise<bigint>;
  stats(): Promise<StoreStats>;
  /** Throws UnavailableError when the store cannot answer. */
  ping(): Promise<void>;
  /**
   * Calls the listener when the store restarted under this process and may
   * have lost entries it acknowledged; it is called before any call reaches
   * the restarted store.
   */
  onReset(listener: (reason: string) => void): void;
  close(): Promise<void>;
}

/** How long a remove's count is kept for retries of the same entry. */
export const REMOVE_RESULT_TTL_SECONDS = 120;

/**
 * The order of two values in UTF-8 bytes (what Redis compares, memcmp), not
 * UTF-16 code units (what JavaScript's < compares; they disagree past U+FFFF).
 * A string key's value is its set entry with the greatest (stamp, value): a
 * caller may send two different entries with one stamp, and every store and
 * cache must keep the same one whichever arrives first.
 */
export function compareValueBytes(a: string, b: string): number {
  if (a === b) return 0;
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
