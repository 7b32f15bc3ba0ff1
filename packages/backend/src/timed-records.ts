// Records that each fall due at a time (an expiry, or an age to sweep at),
// looked up by key and taken in due order. The memory engine keeps its write
// records, remove counts and tombstones this way.
//
// A Map alone would keep the order, but taking entries off its front leaves
// deleted slots that every later walk from the front steps over again until
// the table is rebuilt: at 10,000 records a second with a 120-s expiry, each
// new record cost a walk over hundreds of thousands of them. Here a queue
// holds every (key, time) in the order set and a head index moves past what
// was taken, so each record is taken in constant time however many came before.
// A key set again leaves its earlier slot behind; once such slots outnumber
// the records, the queue is rebuilt without them, so a key set over and over
// (a key deleted again and again keeps one tombstone) takes one slot, not one per set.

export interface Timed<V> {
  value: V;
  at: number;
}

/** The queue is cut down once this many slots it need not keep pile up. */
const COMPACT_AFTER = 1024;

export class TimedRecords<V> {
  readonly #records = new Map<string, Timed<V>>();
  /** Every set in the order made, as two arrays (no object per slot); a slot whose key was set again since (or taken) is skipped. */
  #keys: string[] = [];
  #ats: number[] = [];
  #head = 0;

  get size(): number {
    return this.#records.size;
  }

  /** The record and the time it falls due, if held. */
  get(key: string): Timed<V> | undefined {
    return this.#records.get(key);
  }

  /**
   * Holds `value` under `key` until `at`, in place of what the key held.
   * Times should not go down from one call to the next (a clock stepped back
   * only makes a record wait behind those set before it).
   */
  set(key: string, value: V, at: number): void {
    this.#records.set(key, { value, at });
    this.#keys.push(key);
    this.#ats.push(at);
    if (this.#keys.length - this.#head > 2 * this.#records.size + COMPACT_AFTER) this.#rebuild();
  }

  /** Takes, oldest first, at most `limit` records due at or before `through`. */
  takeDue(through: number, limit = Number.POSITIVE_INFINITY): [string, V][] {
    const taken: [string, V][] = [];
    while (this.#head < this.#keys.length && taken.length < limit) {
      const key = this.#keys[this.#head]!;
      const at = this.#ats[this.#head]!;
      if (at > through) break;
      this.#head++;
      const record = this.#records.get(key);
      if (record?.at !== at) continue;
      this.#records.delete(key);
      taken.push([key, record.value]);
    }
    if (this.#head > COMPACT_AFTER && this.#head * 2 > this.#keys.length) {
      this.#keys = this.#keys.slice(this.#head);
      this.#ats = this.#ats.slice(this.#head);
      this.#head = 0;
    }
    return taken;
  }

  /** The queue with one slot per record, in the order they were last set. */
  #rebuild(): void {
    const kept = new Set<string>();
    const keys: string[] = [];
    const ats: number[] = [];
    for (let i = this.#keys.length - 1; i >= this.#head; i--) {
      const key = this.#keys[i]!;
      const at = this.#ats[i]!;
      if (kept.has(key) || this.#records.get(key)?.at !== at) continue;
      kept.add(key);
      keys.push(key);
      ats.push(at);
    }
    this.#keys = keys.reverse();
    this.#ats = ats.reverse();
    this.#head = 0;
  }
}
