// The winning entries of recently read or written string keys, held in the
// backend's memory so that a get costs no Redis round trip. On this machine a
// get message costs a backend two wake-ups, one for the request and one for
// Redis's reply; answering from memory halves that (measured: 6 backends, get
// at c=64, ~47k -> ~84k gets/s).
//
// The cache stays exact because a backend is the only writer of its Redis
// keyspace, and a string key's value is a max-register: the entry with the
// greatest stamp, then value (two different entries may carry one stamp).
// Every observation of the store (a read's reply, an applied entry) is merged
// by keeping the greater entry, so observations may arrive in any order. What cannot be merged is an observation of a store that has
// since changed behind the cache's back (an apply whose outcome is unknown, a
// Drop, a Redis restart, a swept tombstone): then the cache is cleared (for a
// swept tombstone, that key is forgotten), and each observation
// carries the epoch it started in, so one that started before a clear is
// dropped instead of repopulating the cache with what the store no longer
// holds. Evicting a key forgets its newest entry the same way, so an
// observation that started before an eviction may only merge into an entry
// still cached, never recreate a missing one: it may be older than what was
// evicted.
import { compareStamps } from "@binring/core";
import { compareValueBytes, type StoredString } from "./store-engine.js";

/** Rough bytes a cached entry costs beyond its key and value (Map slot, objects, stamp). */
const ENTRY_OVERHEAD_BYTES = 120;

interface CachedEntry {
  /** null: the store holds no entry for the key. */
  stored: StoredString | null;
  bytes: number;
}

function sizeOf(key: string, stored: StoredString | null): number {
  return ENTRY_OVERHEAD_BYTES + key.length + (stored?.value.length ?? 0);
}

/**
 * Whether `next` must replace `current`: it is a newer entry, or any entry
 * where none was. Entries are ordered by stamp, then by value bytes, as the
 * store orders them (two different entries may carry one stamp).
 */
function isNewer(next: StoredString | null, current: StoredString | null): boolean {
  if (next === null) return false;
  if (current === null) return true;
  const byStamp = compareStamps(next.stamp, current.stamp);
  return byStamp > 0 || (byStamp === 0 && compareValueBytes(next.value, current.value) > 0);
}

export class StringCache {
  /** Least recently used first: a hit moves the key to the end. */
  readonly #entries = new Map<string, CachedEntry>();
  #bytes = 0;
  /** Ticks at every clear and every eviction; an observation carries the epoch it started in. */
  #epoch = 0;
  #clearedAt = 0;
  #evictedAt = 0;

  /** @param maxBytes approximate memory bound; 0 disables the cache. */
  constructor(readonly maxBytes: number) {}

  /** Now, as the start of an observation: read it before asking the store. */
  get epoch(): number {
    return this.#epoch;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The store's entry for the key: null when it holds none, undefined when not cached. */
  get(key: string): StoredString | null | undefined {
    const cached = this.#entries.get(key);
    if (!cached) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, cached);
    return cached.stored;
  }

  /**
   * What the store held for the key, observed from `startedAt` (an `epoch`)
   * on: a read's reply (null: no entry), or a set entry the store has just
   * made the key's value. Dropped when the cache was cleared since, when it
   * holds a newer entry, and when the key is missing but something was
   * evicted since (it may have been a newer entry for this key).
   */
  observe(key: string, stored: StoredString | null, startedAt: number): void {
    if (this.maxBytes === 0 || startedAt < this.#clearedAt) return;
    const cached = this.#entries.get(key);
    if (cached === undefined && startedAt < this.#evictedAt) return;
    if (cached && !isNewer(stored, cached.stored)) return;
    if (cached) this.#remove(key, cached);
    const bytes = sizeOf(key, stored);
    if (bytes > this.maxBytes) {
      // Too large to keep: the key's newest entry is not cached, as if evicted.
      this.#markEvicted();
      return;
    }
    this.#entries.set(key, { stored, bytes });
    this.#bytes += bytes;
    this.#evict();
  }

  /**
   * A set entry a copy (repair or fill) has just made the key's value: merged
   * when the key is cached, and otherwise left out, as if evicted. A fill
   * brings a backend every entry of its new share at once; cached, they would
   * push out the keys clients read, and cost a cache insertion each.
   */
  observeCopy(key: string, stored: StoredString, startedAt: number): void {
    if (this.#entries.has(key)) this.observe(key, stored, startedAt);
    else this.#markEvicted();
  }

  /**
   * Forgets one key the store dropped behind the cache's back (a swept
   * tombstone), as an eviction: an observation that started before cannot
   * bring it back.
   */
  forget(key: string): void {
    const cached = this.#entries.get(key);
    if (cached) this.#remove(key, cached);
    this.#markEvicted();
  }

  /** Forgets everything: the store changed in a way the cache cannot follow. */
  clear(): void {
    this.#clearedAt = ++this.#epoch;
    this.#entries.clear();
    this.#bytes = 0;
  }

  #remove(key: string, cached: CachedEntry): void {
    this.#entries.delete(key);
    this.#bytes -= cached.bytes;
  }

  #evict(): void {
    // Checked before iterating: reaching a Map's first entry skips the slots of
    // every key deleted since its last rehash (every hit deletes and re-adds one).
    if (this.#bytes <= this.maxBytes) return;
    for (const [key, cached] of this.#entries) {
      if (this.#bytes <= this.maxBytes) return;
      this.#remove(key, cached);
      this.#markEvicted();
    }
  }

  #markEvicted(): void {
    this.#evictedAt = ++this.#epoch;
  }
}
