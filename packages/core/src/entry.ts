// Log entries: every mutation is one entry stamped by its writer. Stores keep
// entries, never derived state, so applying an entry twice or a set of entries
// in any order gives the same result (what lets replicas converge and repairs
// be retried).
import type { Stamp } from "./stamp.js";

export type EntryKind = "set" | "append" | "remove";

export interface Entry {
  bin: string;
  key: string;
  kind: EntryKind;
  /** set: the new value ("" deletes); append: the element; remove: the element removed. */
  value: string;
  stamp: Stamp;
}

/** What applying one entry did. */
export interface ApplyOutcome {
  /** remove entries: occurrences removed, decided when the store first applied this entry. */
  removed: number;
  /**
   * append entries: a remove of the same value with a larger stamp was here
   * first, so this append never shows. A writer still applying it restamps it
   * (the remove must not count an append that arrives after it).
   */
  superseded: boolean;
  /**
   * remove entries: `removed` was decided here by the remove's own writer while
   * this backend was ready, so it may be reported as the remove's count. A
   * count decided by a repair copy (or while filling) may miss appends.
   */
  countDecided: boolean;
}
