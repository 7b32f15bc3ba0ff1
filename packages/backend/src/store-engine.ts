// What a backend needs from its store. Two engines implement it with the same
// semantics (checked by one conformance suite): Redis, and memory for machines
// without Redis.
import {
  type ApplyOutcome,
  type Entry,
  type KeyPattern,
  ListFullError,
  type RingRange,
  type Stamp,
} from "@binring/core";

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
   * `limited`: they are client writes, so an append that would take its list
   * past MAX_LIST_BYTES is not applied, and the call rejects with
   * ListFullError (listLimitError) once the other entries are applied.
   * Copies (repair, fill, replication) are never limited: what a replica holds
   * must reach the others whatever its size.
   */
  apply(entries: readonly Entry[], decides?: boolean, limited?: boolean): Promise<ApplyOutcome[]>;
  /**
   * Applies copies (repair, fill) as `apply` does, but behind client writes:
   * a long copy never holds the store for long at a time.
   */
  applyCopies(entries: readonly Entry[]): Promise<void>;
  /**
   * The largest stamp of an entry of the write (writer, seq) applied here in
   * the last WRITE_RECORD_TTL_SECONDS, or null; looked up after every apply
   * requested before it (a claim, write-fences.ts).
   */
  claim(writer: string, seq: number): Promise<Stamp | null>;
  /** Whether the append (bin, key, value) is here under `stamp`, or was until a remove deleted it here. */
  holdsAppend(bin: string, key: string, value: string, stamp: Stamp): Promise<boolean>;
  getString(bin: string, key: string): Promise<StoredString | null>;
  /** Non-empty string keys of the bin matching the pattern, sorted. */
  keys(bin: string, pattern: KeyPattern): Promise<string[]>;
  /** Live list elements in stamp order. */
  getList(bin: string, key: string): Promise<string[]>;
  /** Keys of the bin's non-empty lists matching the pattern, sorted. */
  listKeys(bin: string, pattern: KeyPattern): Promise<string[]>;
  /** Every entry (tombstones included) of the bins whose ring point is in one of the ranges, in batches of at most batchSize. */
  scan(ranges: readonly RingRange[], batchSize: number): AsyncIterable<Entry[]>;
  /**
   * Deletes every entry of the bins in the ranges; returns how many bins went.
   * Stops before the next bins once `stop` says so (their caller's view was
   * overtaken); those already sent to the store go. Given `rest`, deletes in
   * rounds of at most PACED_DROP_BINS bins and awaits `rest` after each,
   * told how long the round took (drop-pace.ts).
   */
  drop(
    ranges: readonly RingRange[],
    stop?: () => boolean,
    rest?: (roundMs: number) => Promise<void>,
  ): Promise<number>;
  /**
   * Drops at most `limit` tombstones (deleted string keys, list values'
   * latest removes) stored here more than `ttlMs` ago, oldest first.
   */
  sweepTombstones(ttlMs: number, limit: number): Promise<TombstoneSweep>;
  /** The persisted clock reservation: no clock at or above it was ever handed out. */
  loadClockReservation(): Promise<bigint>;
  /** Persists a larger reservation (never lowers it) and returns the one stored. */
  raiseClockReservation(reservation: bigint): Promise<bigint>;
  /** The membership records the keepers gave this backend (kept-membership.ts), as stored; null: none. */
  loadMembership(): Promise<string | null>;
  saveMembership(records: string): Promise<void>;
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
 * How long a backend remembers which stamp it applied for a write (writer,
 * seq), for a claim: past any write's deadline (the SDK allows at most 60 s).
 */
export const WRITE_RECORD_TTL_SECONDS = 120;

/**
 * Most bytes a list may hold, counted as the sum over its live elements of
 * their value's UTF-8 byte length plus LIST_ELEMENT_OVERHEAD_BYTES. A client
 * append that would pass it is refused; copies are not (see StoreEngine.apply).
 */
export const MAX_LIST_BYTES = 8 * 1024 * 1024;
/** What each list element counts towards MAX_LIST_BYTES besides its value (its stamp, framing). */
export const LIST_ELEMENT_OVERHEAD_BYTES = 64;

/** Bytes an element of this value counts towards its list's size. */
export function listElementBytes(value: string): number {
  return Buffer.byteLength(value, "utf8") + LIST_ELEMENT_OVERHEAD_BYTES;
}

/** The refusal of an append that would take a list of `listBytes` past MAX_LIST_BYTES. */
export function listLimitError(key: string, listBytes: number, value: string): ListFullError {
  return new ListFullError(
    `list ${JSON.stringify(key)} is ${listBytes} bytes; appending ${listElementBytes(value)} more bytes would pass the limit of ${MAX_LIST_BYTES} bytes (each element counts its value bytes + ${LIST_ELEMENT_OVERHEAD_BYTES})`,
  );
}

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
