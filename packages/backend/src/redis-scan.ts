// Reading the entries of a stretch of the ring from Redis, for a repair or
// fill copying from this backend (Scan): the bins in the ranges by the
// `bins` index (redis-bins.ts), then every entry of each bin, tombstones
// included, in reads bounded in entries and bytes however large the bin.
import {
  decodeStamp,
  ENCODED_STAMP_LENGTH,
  type Entry,
  MESSAGE_BUDGET_BYTES,
  type RingRange,
} from "@binring/core";
import { binTag } from "./apply-script.js";
import { BinPages } from "./redis-bins.js";
import type { RedisConnection, ScriptRunner } from "./redis-connection.js";
import type { TurnPipeline } from "./turn-pipeline.js";

/** Most bins read (Scan) or deleted (Drop, one script call each) per round of pipelined calls. */
export const BINS_PER_ROUND = 64;

/**
 * Most entries read in one round of pipelined calls, and about the most bytes
 * (one larger than that is read alone). Reading a whole bin at once held the
 * bin in memory, and a bin of 200 values of 8 MiB did not come back within
 * the command timeout, so its copy failed every time.
 */
const READ_MAX_ENTRIES = 2000;
const READ_BUDGET_BYTES = MESSAGE_BUDGET_BYTES;
/** About the most keys of one set a call of lua/bin-keys.lua, or of a keys call (redis-key-set.ts), pages through (SSCAN's COUNT). */
export const KEYS_PER_PAGE = 1000;

/** The Redis a Scan reads, and the scripts that page its bins' keys (lua/bin-keys.lua) and lists' tombstones (lua/list-tombstones.lua). */
export interface ScanStore {
  connection: RedisConnection;
  pipeline: TurnPipeline;
  binKeys: ScriptRunner;
  listTombstones: ScriptRunner;
  keyPrefix: string;
}

/**
 * Every entry of the bins in the ranges, in batches of at most batchSize
 * entries and about MESSAGE_BUDGET_BYTES. An entry may come twice (SSCAN
 * returns a key twice if its set grows meanwhile); applying it twice changes nothing.
 */
export async function* scanEntries(
  store: ScanStore,
  ranges: readonly RingRange[],
  batchSize: number,
): AsyncIterable<Entry[]> {
  const bins = new BinPages(store.connection, store.pipeline, ranges);
  let batch: Entry[] = [];
  let bytes = 0;
  let binsRead = 0;
  let entriesRead = 0;
  for (;;) {
    // About a batch's worth of entries per round, judged by the bins read so far: a round is read,
    // decoded and framed in one go, holding Redis and this process from clients' calls meanwhile.
    const roundBins = await bins.take(binsForRound(binsRead, entriesRead, batchSize));
    if (roundBins.length === 0) break;
    binsRead += roundBins.length;
    for await (const entries of roundEntries(store, roundBins)) {
      entriesRead += entries.length;
      // Entry by entry, so that a bin with a long list still travels in batches of batchSize and of about
      // MESSAGE_BUDGET_BYTES (values may be megabytes each).
      for (const entry of entries) {
        batch.push(entry);
        bytes += entry.value.length + entry.key.length;
        if (batch.length >= batchSize || bytes >= MESSAGE_BUDGET_BYTES) {
          yield batch;
          batch = [];
          bytes = 0;
        }
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/** Bins to read next: one to start with, then as many as hold about `batchSize` entries at the rate so far. */
export function binsForRound(binsRead: number, entriesRead: number, batchSize: number): number {
  if (binsRead === 0) return 1;
  if (entriesRead === 0) return BINS_PER_ROUND;
  return Math.max(1, Math.min(BINS_PER_ROUND, Math.floor((batchSize * binsRead) / entriesRead)));
}

/** One string key or list of a bin, and about the bytes reading it brings. */
interface StoredKey {
  bin: string;
  tag: string;
  key: string;
  list: boolean;
  bytes: number;
}

/** A bin's string keys (`ka:`) or lists (`la:`), and where its paging has got to. */
interface KeySet {
  bin: string;
  tag: string;
  list: boolean;
  cursor: string;
}

/**
 * The entries of a round's bins, one bounded read at a time: their keys come
 * in pages (bin-keys.lua), each page read before the next is asked for.
 */
async function* roundEntries(store: ScanStore, bins: readonly string[]): AsyncIterable<Entry[]> {
  let sets: KeySet[] = bins.flatMap((bin) =>
    [false, true].map((list) => ({ bin, tag: binTag(bin), list, cursor: "0" })),
  );
  while (sets.length > 0) {
    const stored = await storedKeys(store, sets);
    sets = sets.filter((set) => set.cursor !== "0");
    for (const read of reads(stored)) yield await readEntries(store, read);
    yield* tombstonesOf(
      store,
      stored.filter(({ list }) => list),
    );
  }
}

/** A list whose tombstones are being read: where its HSCAN has got to. */
interface TombstonePaging {
  bin: string;
  tag: string;
  key: string;
  cursor: string;
}

/**
 * The lists' tombstones, as remove entries, in reads of at most
 * READ_MAX_ENTRIES and about READ_BUDGET_BYTES for all the lists of a read
 * together (lua/list-tombstones.lua): a list's tombstones are not bounded by
 * its size, nor counted in it.
 */
async function* tombstonesOf(store: ScanStore, lists: readonly StoredKey[]): AsyncIterable<Entry[]> {
  let left: TombstonePaging[] = lists.map(({ bin, tag, key }) => ({ bin, tag, key, cursor: "0" }));
  while (left.length > 0) {
    const asked = left.slice(0, READ_MAX_ENTRIES);
    const args = asked.flatMap(({ tag, key, cursor }) => [`${tag}${key}`, cursor]);
    const pages = (await store.connection.call(() =>
      store.listTombstones([], [store.keyPrefix, READ_BUDGET_BYTES, READ_MAX_ENTRIES, ...args]),
    )) as string[][];
    const entries: Entry[] = [];
    pages.forEach((page, i) => {
      const list = asked[i]!;
      list.cursor = String(page[0]);
      for (let k = 1; k < page.length; k += 2) {
        const stamp = decodeStamp(String(page[k + 1]));
        entries.push({ bin: list.bin, key: list.key, kind: "remove", value: String(page[k]), stamp });
      }
    });
    // A list the script reached and finished is done; one it did not reach goes on from where it was.
    left = left.filter((list, i) => i >= pages.length || list.cursor !== "0");
    if (entries.length > 0) yield entries;
  }
}

/**
 * The next page of each set's keys, with their sizes (a string entry's length,
 * a list's byte count), not their values; moves each set's cursor on.
 */
async function storedKeys(store: ScanStore, sets: KeySet[]): Promise<StoredKey[]> {
  const args = sets.flatMap(({ tag, list, cursor }) => [tag, list ? "la:" : "ka:", cursor]);
  const pages = (await store.connection.call(() =>
    store.binKeys([], [store.keyPrefix, KEYS_PER_PAGE, ...args]),
  )) as (string | number)[][];
  const found: StoredKey[] = [];
  sets.forEach((set, i) => {
    const page = pages[i]!;
    set.cursor = String(page[0]);
    for (let k = 1; k < page.length; k += 2) {
      const key = String(page[k]);
      found.push({
        bin: set.bin,
        tag: set.tag,
        key,
        list: set.list,
        bytes: Number(page[k + 1]) + key.length,
      });
    }
  });
  return found;
}

/** The keys in reads of at most READ_MAX_ENTRIES keys and about READ_BUDGET_BYTES. */
function* reads(stored: readonly StoredKey[]): Iterable<StoredKey[]> {
  let read: StoredKey[] = [];
  let bytes = 0;
  for (const key of stored) {
    if (read.length > 0 && (read.length >= READ_MAX_ENTRIES || bytes + key.bytes > READ_BUDGET_BYTES)) {
      yield read;
      read = [];
      bytes = 0;
    }
    read.push(key);
    bytes += key.bytes;
  }
  if (read.length > 0) yield read;
}

/** The entries of the keys: a string key's entry, a list's appends (its removes come apart: tombstonesOf). A key gone meanwhile has none. */
async function readEntries(
  { connection, pipeline }: ScanStore,
  read: readonly StoredKey[],
): Promise<Entry[]> {
  const values = await connection.call(() =>
    Promise.all(
      read.map(({ tag, key, list }) =>
        list
          ? pipeline.send<string[]>("zrange", `l:${tag}${key}`, 0, -1)
          : pipeline.send<string | null>("get", `s:${tag}${key}`),
      ),
    ),
  );
  const entries: Entry[] = [];
  read.forEach(({ bin, key, list }, i) => {
    if (!list) {
      const stored = values[i] as string | null;
      if (stored == null) return;
      const stamp = decodeStamp(stored.slice(0, ENCODED_STAMP_LENGTH));
      entries.push({ bin, key, kind: "set", value: stored.slice(ENCODED_STAMP_LENGTH), stamp });
      return;
    }
    for (const member of values[i] as string[]) {
      const stamp = decodeStamp(member.slice(0, ENCODED_STAMP_LENGTH));
      entries.push({ bin, key, kind: "append", value: member.slice(ENCODED_STAMP_LENGTH), stamp });
    }
  });
  return entries;
}
