// The in-process store engine: the Redis engine's semantics on plain maps, so a
// local cluster runs where no redis-server is installed. Data lives as long as
// the process.
import {
  type ApplyOutcome,
  decodeStamp,
  type Entry,
  encodeStamp,
  type KeyPattern,
  matchesPattern,
  pointInRange,
  type RingRange,
  ringPoint,
  type Stamp,
} from "@binring/core";
import {
  compareValueBytes,
  listElementBytes,
  listLimitError,
  MAX_LIST_BYTES,
  REMOVE_RESULT_TTL_SECONDS,
  type StoredString,
  type StoreEngine,
  type StoreStats,
  type TombstoneSweep,
  WRITE_RECORD_TTL_SECONDS,
} from "./store-engine.js";
import { TimedRecords } from "./timed-records.js";

interface StoredList {
  /** live appends as [encoded stamp, value], kept sorted by stamp, then value bytes (Redis's member order) */
  appends: [string, string][];
  /** sum of listElementBytes over the live appends, for MAX_LIST_BYTES */
  bytes: number;
  /** value -> encoded stamp of its latest remove */
  tombstones: Map<string, string>;
}

interface BinData {
  point: number;
  /** string keys with a non-empty value, and lists with a live append: counted as they change, for stats */
  liveKeys: number;
  liveLists: number;
  /** key -> encoded stamp .. value, deletions included */
  strings: Map<string, string>;
  lists: Map<string, StoredList>;
}

const STAMP_LENGTH = 40;

/** A tombstone as the sweep finds it: a deleted string key, or a list value's latest remove. */
interface TombstoneRecord {
  bin: string;
  key: string;
  /** the removed list value; undefined for a deleted string key */
  value?: string;
}

export class MemoryEngine implements StoreEngine {
  /** Wall time in ms since epoch, for expiries and tombstone ages (as Redis's TIME and EX are for the Redis engine). */
  readonly #now: () => number;
  readonly #bins = new Map<string, BinData>();
  /** The bins' keys and lists summed: stats answers every heartbeat, so it must not walk the data. */
  readonly #counts = { keys: 0, lists: 0 };
  /** encoded stamp of a remove -> [removed count, decided by its writer on a ready backend], until its expiry (ms since epoch) */
  readonly #removeResults = new TimedRecords<[number, boolean]>();
  /** encoded stamps of the appends a remove deleted here, until their expiry */
  readonly #removedAppends = new TimedRecords<true>();
  /** a write's writer and seq (a stamp's last 24 characters) -> the largest stamp applied for it, until its expiry */
  readonly #writeRecords = new TimedRecords<string>();
  #clockReservation = 0n;
  #membership: string | null = null;
  /** Tombstones by when they were stored here, ms since epoch (a replaced one counts from its replacement), for the sweep. */
  readonly #tombstonesByAge = new TimedRecords<TombstoneRecord>();

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  async apply(entries: readonly Entry[], decides = false, limited = false): Promise<ApplyOutcome[]> {
    let refused: Error | undefined;
    const outcomes = entries.map((entry) => {
      const outcome = this.#applyOne(entry, decides, limited);
      if (typeof outcome === "number") {
        // Refused: the list holds `outcome` bytes. The other entries apply all the same.
        refused ??= listLimitError(entry.key, outcome, entry.value);
        return { removed: 0, superseded: false, countDecided: false };
      }
      this.#record(encodeStamp(entry.stamp));
      return outcome;
    });
    if (refused) throw refused;
    return outcomes;
  }

  /** Nothing waits behind a copy here: every call completes in one turn. */
  async applyCopies(entries: readonly Entry[]): Promise<void> {
    await this.apply(entries);
  }

  /** As lua/apply-entries.lua `record`: the largest stamp applied for the stamp's write. */
  #record(stamp: string): void {
    const write = stamp.slice(16);
    const now = this.#now();
    this.#writeRecords.takeDue(now - 1);
    const held = this.#writeRecords.get(write);
    if (held && held.value >= stamp) return;
    this.#writeRecords.set(write, stamp, now + WRITE_RECORD_TTL_SECONDS * 1000);
  }

  async holdsAppend(bin: string, key: string, value: string, stamp: Stamp): Promise<boolean> {
    const encoded = encodeStamp(stamp);
    const list = this.#bins.get(bin)?.lists.get(key);
    return (
      (list?.appends.some(([at, held]) => at === encoded && held === value) ?? false) ||
      this.#wasRemovedHere(encoded)
    );
  }

  async claim(writer: string, seq: number): Promise<Stamp | null> {
    const held = this.#writeRecords.get(encodeStamp({ clock: 0n, writer, seq }).slice(16));
    return held && held.at >= this.#now() ? decodeStamp(held.value) : null;
  }

  /** What applying the entry did, or for a limited append refused by MAX_LIST_BYTES its list's bytes. */
  #applyOne(entry: Entry, decides: boolean, limited: boolean): ApplyOutcome | number {
    const stamp = encodeStamp(entry.stamp);
    const bin = this.#binFor(entry.bin);
    if (entry.kind === "set") {
      const current = bin.strings.get(entry.key);
      if (current === undefined || outranks(stamp, entry.value, current)) {
        const wasLive = current !== undefined && current.length > STAMP_LENGTH;
        this.#count(bin, Number(entry.value !== "") - Number(wasLive), 0);
        bin.strings.set(entry.key, stamp + entry.value);
        if (entry.value === "") this.#noteTombstone({ bin: entry.bin, key: entry.key });
      }
      return { removed: 0, superseded: false, countDecided: false };
    }
    let list = bin.lists.get(entry.key);
    if (!list) {
      list = { appends: [], bytes: 0, tombstones: new Map() };
      bin.lists.set(entry.key, list);
    }
    const tombstone = list.tombstones.get(entry.value);
    if (entry.kind === "append") {
      // Below a newer remove, superseded, unless held here before that remove counted it.
      if (tombstone !== undefined && tombstone > stamp) {
        return { removed: 0, superseded: !this.#wasRemovedHere(stamp), countDecided: false };
      }
      const at = insertionPoint(list.appends, stamp, entry.value);
      const there = list.appends[at];
      if (there?.[0] !== stamp || there[1] !== entry.value) {
        const bytes = listElementBytes(entry.value);
        if (limited && list.bytes + bytes > MAX_LIST_BYTES) return list.bytes;
        if (list.appends.length === 0) this.#count(bin, 0, 1);
        list.appends.splice(at, 0, [stamp, entry.value]);
        list.bytes += bytes;
      }
      return { removed: 0, superseded: false, countDecided: false };
    }
    if (tombstone !== undefined && tombstone >= stamp) return this.#rememberedRemoval(stamp);
    list.tombstones.set(entry.value, stamp);
    this.#noteTombstone({ bin: entry.bin, key: entry.key, value: entry.value });
    const now = this.#now();
    this.#removeResults.takeDue(now - 1);
    this.#removedAppends.takeDue(now - 1);
    const expiresAt = now + REMOVE_RESULT_TTL_SECONDS * 1000;
    const kept: [string, string][] = [];
    for (const append of list.appends) {
      if (append[1] === entry.value && append[0] < stamp)
        this.#removedAppends.set(append[0], true, expiresAt);
      else kept.push(append);
    }
    const removed = list.appends.length - kept.length;
    if (removed > 0 && kept.length === 0) this.#count(bin, 0, -1);
    list.appends = kept;
    list.bytes -= removed * listElementBytes(entry.value);
    this.#removeResults.set(stamp, [removed, decides], expiresAt);
    return { removed, superseded: false, countDecided: decides };
  }

  #wasRemovedHere(appendStamp: string): boolean {
    const removed = this.#removedAppends.get(appendStamp);
    return removed !== undefined && removed.at >= this.#now();
  }

  /** A remove applied here before: its count as first decided; without a record, 0 and not decided. */
  #rememberedRemoval(stamp: string): ApplyOutcome {
    const remembered = this.#removeResults.get(stamp);
    if (!remembered || remembered.at < this.#now())
      return { removed: 0, superseded: false, countDecided: false };
    const [removed, countDecided] = remembered.value;
    return { removed, superseded: false, countDecided };
  }

  #binFor(name: string): BinData {
    let bin = this.#bins.get(name);
    if (!bin) {
      bin = { point: ringPoint(name), liveKeys: 0, liveLists: 0, strings: new Map(), lists: new Map() };
      this.#bins.set(name, bin);
    }
    return bin;
  }

  async getString(bin: string, key: string): Promise<StoredString | null> {
    const stored = this.#bins.get(bin)?.strings.get(key);
    if (stored === undefined) return null;
    return { stamp: decodeStamp(stored.slice(0, STAMP_LENGTH)), value: stored.slice(STAMP_LENGTH) };
  }

  async keys(bin: string, pattern: KeyPattern): Promise<string[]> {
    const keys: string[] = [];
    for (const [key, stored] of this.#bins.get(bin)?.strings ?? []) {
      if (stored.length > STAMP_LENGTH && matchesPattern(key, pattern)) keys.push(key);
    }
    return keys.sort();
  }

  async getList(bin: string, key: string): Promise<string[]> {
    return (this.#bins.get(bin)?.lists.get(key)?.appends ?? []).map(([, value]) => value);
  }

  async listKeys(bin: string, pattern: KeyPattern): Promise<string[]> {
    const keys: string[] = [];
    for (const [key, list] of this.#bins.get(bin)?.lists ?? []) {
      if (list.appends.length > 0 && matchesPattern(key, pattern)) keys.push(key);
    }
    return keys.sort();
  }

  async *scan(ranges: readonly RingRange[], batchSize: number): AsyncIterable<Entry[]> {
    const batch: Entry[] = [];
    for (const [name, bin] of this.#binsIn(ranges)) {
      for (const [key, stored] of bin.strings) {
        const stamp = decodeStamp(stored.slice(0, STAMP_LENGTH));
        batch.push({ bin: name, key, kind: "set", value: stored.slice(STAMP_LENGTH), stamp });
      }
      for (const [key, list] of bin.lists) {
        for (const [stamp, value] of list.appends) {
          batch.push({ bin: name, key, kind: "append", value, stamp: decodeStamp(stamp) });
        }
        for (const [value, stamp] of list.tombstones) {
          batch.push({ bin: name, key, kind: "remove", value, stamp: decodeStamp(stamp) });
        }
      }
      while (batch.length >= batchSize) yield batch.splice(0, batchSize);
    }
    if (batch.length > 0) yield batch;
  }

  async drop(
    ranges: readonly RingRange[],
    stop?: () => boolean,
    rest?: (roundMs: number) => Promise<void>,
  ): Promise<number> {
    let dropped = 0;
    for (const [name] of this.#binsIn(ranges)) {
      // A pause between bins, where a newer view can arrive, as between the Redis engine's rounds.
      await Promise.resolve();
      if (stop?.()) break;
      const startedAt = performance.now();
      const bin = this.#bins.get(name);
      if (bin) this.#count(bin, -bin.liveKeys, -bin.liveLists);
      this.#bins.delete(name);
      dropped++;
      await rest?.(performance.now() - startedAt);
    }
    return dropped;
  }

  #noteTombstone(record: TombstoneRecord): void {
    const id = JSON.stringify([record.bin, record.key, record.value ?? null]);
    this.#tombstonesByAge.set(id, record, this.#now());
  }

  async sweepTombstones(ttlMs: number, limit: number): Promise<TombstoneSweep> {
    const due = this.#tombstonesByAge.takeDue(this.#now() - ttlMs, limit);
    const dropped = due.filter(([, record]) => this.#dropTombstone(record)).length;
    return { examined: due.length, dropped };
  }

  /** Drops the tombstone if it is still one; an emptied list, then an emptied bin, go too. */
  #dropTombstone({ bin: name, key, value }: TombstoneRecord): boolean {
    const bin = this.#bins.get(name);
    if (!bin) return false;
    if (value === undefined) {
      if (bin.strings.get(key)?.length !== STAMP_LENGTH) return false;
      bin.strings.delete(key);
    } else {
      const list = bin.lists.get(key);
      if (!list?.tombstones.delete(value)) return false;
      if (list.appends.length === 0 && list.tombstones.size === 0) bin.lists.delete(key);
    }
    if (bin.strings.size === 0 && bin.lists.size === 0) this.#bins.delete(name);
    return true;
  }

  #binsIn(ranges: readonly RingRange[]): [string, BinData][] {
    return [...this.#bins].filter(([, bin]) => ranges.some((r) => pointInRange(bin.point, r.start, r.end)));
  }

  async loadClockReservation(): Promise<bigint> {
    return this.#clockReservation;
  }

  async raiseClockReservation(reservation: bigint): Promise<bigint> {
    if (reservation > this.#clockReservation) this.#clockReservation = reservation;
    return this.#clockReservation;
  }

  async loadMembership(): Promise<string | null> {
    return this.#membership;
  }

  async saveMembership(records: string): Promise<void> {
    this.#membership = records;
  }

  async stats(): Promise<StoreStats> {
    return { bins: this.#bins.size, ...this.#counts };
  }

  #count(bin: BinData, keys: number, lists: number): void {
    bin.liveKeys += keys;
    bin.liveLists += lists;
    this.#counts.keys += keys;
    this.#counts.lists += lists;
  }

  async ping(): Promise<void> {}

  /** Never called: the memory store lives and dies with the process. */
  onReset(): void {}

  async close(): Promise<void> {}
}

/**
 * Whether a set entry (stamp, value) beats the stored one (stamp .. value):
 * a greater stamp, or the same stamp and greater value bytes. Two different
 * entries may carry one stamp (a caller chose it); every store keeps the same.
 */
function outranks(stamp: string, value: string, stored: string): boolean {
  const storedStamp = stored.slice(0, STAMP_LENGTH);
  if (storedStamp !== stamp) return storedStamp < stamp;
  return compareValueBytes(value, stored.slice(STAMP_LENGTH)) > 0;
}

/** Index of the first append not below (stamp, value) in stamp, then value byte order (binary search). */
function insertionPoint(appends: readonly [string, string][], stamp: string, value: string): number {
  let low = 0;
  let high = appends.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const [middleStamp, middleValue] = appends[middle]!;
    const below = middleStamp < stamp || (middleStamp === stamp && compareValueBytes(middleValue, value) < 0);
    if (below) low = middle + 1;
    else high = middle;
  }
  return low;
}
