// The Redis store engine. Entries are applied by one Lua script
// (lua/apply-entries.lua), so concurrent requests never race between a read
// and a write; the entries of one event-loop turn share one script call, and
// the reads of one turn one pipeline (turn-pipeline.ts).
//
// Layout (one Redis per backend; <bin> is "<utf8 byte length>:<bin name>", so
// "<bin><key>" never collides for distinct (bin, key) pairs):
//   s:<bin><key>   string entry: 40-byte stamp .. value ("" = deletion)
//   k:<bin>        SET of keys with a non-empty value; ka:<bin> every string key with an entry
//   l:<bin><key>   ZSET of live appends (member stamp .. value, score 0: stamp order)
//   lv:<bin><key>  ZSET of live appends by value (sha1hex(value) .. stamp), read by a remove of that value
//   lb:<bin><key>  bytes of the live appends, for MAX_LIST_BYTES (value bytes + 64 each)
//   lt:<bin><key>  HASH value -> stamp of its latest remove (tombstone)
//   lk:<bin>       SET of non-empty list keys; la:<bin> every list key with an entry
//   bins           ZSET of bin names scored by ring point (range scans for repair)
//   rr:<stamp> ra:<stamp>  a remove's removed count; an append a remove deleted here (for retries, expire)
//   w:<writer,seq> the largest stamp applied here for a write, for claims (expires)
//   n:keys n:lists counts of non-empty keys and lists; clock: clock reservation; members: membership records
//   gc             ZSET of tombstones by when they were stored here (sweep-tombstones.lua)
//
// String reads are answered from memory when they can (string-cache.ts). A
// Redis that restarted under a running backend may have lost entries the
// backend acknowledged (an append-only file lags, or there is none): the
// engine tells its listeners (onReset), and the backend stops serving reads
// until keepers have refilled it (HAZARDS.md 4).
import {
  type ApplyOutcome,
  decodeStamp,
  type Entry,
  encodeStamp,
  type KeyPattern,
  MESSAGE_BUDGET_BYTES,
  type RingRange,
  type Stamp,
  TurnBatch,
} from "@binring/core";
import type { Logger } from "pino";
import { applyOutcome, applyScriptArguments, binTag } from "./apply-script.js";
import { CopyLane } from "./copy-lane.js";
import { DROP_KEYS_PER_CALL, PACED_DROP_BINS } from "./drop-pace.js";
import { ENTRIES_PER_SCRIPT_CALL, type PendingStoreCall, splitApply } from "./pending-apply.js";
import { BinPages } from "./redis-bins.js";
import { REDIS_COMMAND_TIMEOUT_MS, RedisConnection, type ScriptRunner } from "./redis-connection.js";
import { keysInSet } from "./redis-key-set.js";
import { BINS_PER_ROUND, type ScanStore, scanEntries } from "./redis-scan.js";
import {
  listLimitError,
  type StoredString,
  type StoreEngine,
  type StoreStats,
  type TombstoneSweep,
} from "./store-engine.js";
import { StringCache } from "./string-cache.js";
import { TurnPipeline } from "./turn-pipeline.js";

const STAMP_LENGTH = 40;
/** Default bound of the string read cache. */
const DEFAULT_READ_CACHE_BYTES = 64 * 1024 * 1024;

/** The Redis key (before the key prefix) of a string key's entry. */
function stringKey(bin: string, key: string): string {
  return `s:${binTag(bin)}${key}`;
}

export interface RedisEngineOptions {
  /** redis:// URL of this backend's own Redis. */
  url: string;
  /** Prefix for every Redis key, so tests can share one server. @default "" */
  keyPrefix?: string;
  /** Memory for string entries answered without Redis (string-cache.ts); 0 disables it. @default 64 MiB */
  readCacheBytes?: number;
  /** A call Redis has not answered within this fails UNAVAILABLE. @default REDIS_COMMAND_TIMEOUT_MS */
  commandTimeoutMs?: number;
  /**
   * Makes Redis keep an append-only file synced this often: "always" (every
   * write is on disk before it is acknowledged; survives a power loss) or
   * "everysec" (up to about a second of writes lost on a power loss). Set with
   * CONFIG SET on every (re)connection, so a restarted Redis gets it again;
   * until Redis takes it, every call fails UNAVAILABLE naming the refusal.
   * Unset: Redis's own configuration stands.
   */
  appendfsync?: "always" | "everysec";
  /** Where a refused durability setting is logged. @default none (it still fails the calls) */
  logger?: Logger;
  /** Told how long each Redis call took, in seconds (backend-metrics.ts). @default none */
  observeCall?: (seconds: number) => void;
}

export class RedisEngine implements StoreEngine {
  readonly #connection: RedisConnection;
  readonly #pipeline: TurnPipeline;
  readonly #keyPrefix: string;
  readonly #applyEntries: ScriptRunner;
  readonly #raiseClock: ScriptRunner;
  readonly #sweepTombstones: ScriptRunner;
  readonly #dropBin: ScriptRunner;
  readonly #scanStore: ScanStore;
  readonly #applies = new TurnBatch<PendingStoreCall>((pending) => this.#applyInChunks(pending));
  readonly #copies = new CopyLane(
    (chunk) => this.#applyChunk(chunk, "copies"),
    (claim) => this.#applies.add(claim),
  );
  readonly #cache: StringCache;

  constructor(options: RedisEngineOptions) {
    this.#connection = new RedisConnection({
      url: options.url,
      keyPrefix: options.keyPrefix ?? "",
      commandTimeoutMs: options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS,
      appendfsync: options.appendfsync,
      logger: options.logger,
      observeCall: options.observeCall,
    });
    this.#cache = new StringCache(options.readCacheBytes ?? DEFAULT_READ_CACHE_BYTES);
    this.#connection.onLost(() => this.#cache.clear());
    this.#pipeline = new TurnPipeline(this.#connection.redis);
    this.#keyPrefix = options.keyPrefix ?? "";
    this.#applyEntries = this.#connection.define("applyEntries", "apply-entries", 0);
    this.#raiseClock = this.#connection.define("raiseClock", "raise-clock", 1);
    this.#sweepTombstones = this.#connection.define("sweepTombstones", "sweep-tombstones", 0);
    this.#dropBin = this.#connection.define("dropBin", "drop-bin", 0);
    this.#scanStore = {
      connection: this.#connection,
      pipeline: this.#pipeline,
      binKeys: this.#connection.define("binKeys", "bin-keys", 0),
      listTombstones: this.#connection.define("listTombstones", "list-tombstones", 0),
      keyPrefix: this.#keyPrefix,
    };
  }

  onReset(listener: (reason: string) => void): void {
    this.#connection.onReset((reason) => {
      this.#cache.clear();
      listener(reason);
    });
  }

  /**
   * Applies entries idempotently. Entries applied in the same event-loop turn,
   * by any number of concurrent requests, travel to Redis as one script call.
   */
  apply(entries: readonly Entry[], decides = false, limited = false): Promise<ApplyOutcome[]> {
    return new Promise((resolve, reject) => {
      this.#applies.add({ entries, decides, limited, resolve, reject });
    });
  }

  /** Through the copy lane (copy-lane.ts): client writes to this backend never wait for more than one chunk of copies. */
  async applyCopies(entries: readonly Entry[]): Promise<void> {
    await new Promise<ApplyOutcome[]>((resolve, reject) => {
      this.#copies.add({ entries, decides: false, limited: false, resolve, reject });
    });
  }

  /**
   * Looked up in a turn's script call, after every apply requested before it
   * (StoreEngine.claim): behind the copies waiting in the lane, if any.
   */
  claim(writer: string, seq: number): Promise<Stamp | null> {
    const write = encodeStamp({ clock: 0n, writer, seq }).slice(16);
    return new Promise((resolve, reject) => {
      const claim = {
        write,
        resolve: (stamp: string | null) => resolve(stamp === null ? null : decodeStamp(stamp)),
        reject,
      };
      if (this.#copies.busy) this.#copies.add(claim);
      else this.#applies.add(claim);
    });
  }

  async holdsAppend(bin: string, key: string, value: string, stamp: Stamp): Promise<boolean> {
    const encoded = encodeStamp(stamp);
    const [live, removed] = await this.#connection.call(() =>
      Promise.all([
        this.#pipeline.send<string | null>("zscore", `l:${binTag(bin)}${key}`, encoded + value),
        this.#pipeline.send<number>("exists", `ra:${encoded}`),
      ]),
    );
    return live !== null || removed === 1;
  }

  #applyInChunks(pending: PendingStoreCall[]): void {
    let chunk: PendingStoreCall[] = [];
    let size = 0;
    let bytes = 0;
    for (const request of pending.flatMap((request) => splitApply(request))) {
      chunk.push(request);
      const entries = "entries" in request ? request.entries : [];
      size += Math.max(1, entries.length);
      for (const entry of entries) bytes += entry.value.length + entry.key.length;
      // One script call blocks Redis while it runs: keep each to about one message's worth.
      if (size >= ENTRIES_PER_SCRIPT_CALL || bytes >= MESSAGE_BUDGET_BYTES) {
        void this.#applyChunk(chunk);
        chunk = [];
        size = 0;
        bytes = 0;
      }
    }
    if (chunk.length > 0) void this.#applyChunk(chunk);
  }

  /** `from`: "copies" are repair and fill's entries (copy-lane.ts), which the read cache takes only for keys it holds. */
  async #applyChunk(chunk: PendingStoreCall[], from: "clients" | "copies" = "clients"): Promise<void> {
    const startedAt = this.#cache.epoch;
    try {
      const args = applyScriptArguments(this.#keyPrefix, chunk);
      const results = (await this.#applyEntries([], args)) as (number | string)[];
      let next = 0;
      for (const request of chunk) {
        if (!("entries" in request)) {
          const held = results[next++];
          request.resolve(typeof held === "string" ? held : null);
          continue;
        }
        const { entries, resolve, reject } = request;
        // Refused appends fail only the request they belong to; the others' entries were applied.
        let refused: Error | undefined;
        const outcomes = entries.map((entry) => {
          const result = Number(results[next++] ?? 0);
          if (entry.kind === "set" && result === 1) {
            // The entry is the key's value now.
            const stored = { stamp: entry.stamp, value: entry.value };
            const key = stringKey(entry.bin, entry.key);
            if (from === "copies") this.#cache.observeCopy(key, stored, startedAt);
            else this.#cache.observe(key, stored, startedAt);
          }
          if (entry.kind === "append" && result <= -3)
            refused ??= listLimitError(entry.key, -3 - result, entry.value);
          return applyOutcome(entry.kind, result);
        });
        if (refused) reject(refused);
        else resolve(outcomes);
      }
    } catch (error) {
      // Some entries may have been applied: what the cache holds for them may be stale.
      this.#cache.clear();
      for (const { reject } of chunk) reject(error);
    }
  }

  async getString(bin: string, key: string): Promise<StoredString | null> {
    const redisKey = stringKey(bin, key);
    const cached = this.#cache.get(redisKey);
    // Only a verified connection fills the cache, and losing it clears the cache.
    if (cached !== undefined) return cached;
    const startedAt = this.#cache.epoch;
    const raw = await this.#connection.call(() => this.#pipeline.send<string | null>("get", redisKey));
    const stored =
      raw === null
        ? null
        : { stamp: decodeStamp(raw.slice(0, STAMP_LENGTH)), value: raw.slice(STAMP_LENGTH) };
    this.#cache.observe(redisKey, stored, startedAt);
    return stored;
  }

  keys(bin: string, pattern: KeyPattern): Promise<string[]> {
    return keysInSet(this.#connection, this.#pipeline, `k:${binTag(bin)}`, pattern, "the keys reply");
  }

  async getList(bin: string, key: string): Promise<string[]> {
    const members = await this.#connection.call(() =>
      this.#pipeline.send<string[]>("zrange", `l:${binTag(bin)}${key}`, 0, -1),
    );
    return members.map((member) => member.slice(STAMP_LENGTH));
  }

  listKeys(bin: string, pattern: KeyPattern): Promise<string[]> {
    return keysInSet(this.#connection, this.#pipeline, `lk:${binTag(bin)}`, pattern, "the listKeys reply");
  }

  scan(ranges: readonly RingRange[], batchSize: number): AsyncIterable<Entry[]> {
    return scanEntries(this.#scanStore, ranges, batchSize);
  }

  async drop(
    ranges: readonly RingRange[],
    stop?: () => boolean,
    rest?: (roundMs: number) => Promise<void>,
  ): Promise<number> {
    try {
      return await this.#drop(ranges, stop, rest);
    } finally {
      // Reads that raced the deletes may have cached entries that are gone now.
      this.#cache.clear();
    }
  }

  /**
   * Deletes the bins a few at a time (PACED_DROP_BINS with a rest, else
   * BINS_PER_ROUND), each in calls of at most DROP_KEYS_PER_CALL keys: a
   * round sends one call for each bin being deleted, and a bin done makes
   * room for the next. A bin cut short by `stop` is not counted.
   */
  async #drop(
    ranges: readonly RingRange[],
    stop?: () => boolean,
    rest?: (roundMs: number) => Promise<void>,
  ): Promise<number> {
    const bins = new BinPages(this.#connection, this.#pipeline, ranges);
    const perRound = rest ? PACED_DROP_BINS : BINS_PER_ROUND;
    let dropping: string[] = [];
    let dropped = 0;
    while (!stop?.()) {
      if (dropping.length < perRound) dropping.push(...(await bins.take(perRound - dropping.length)));
      if (dropping.length === 0) break;
      const startedAt = performance.now();
      const gone = await Promise.all(dropping.map((bin) => this.#dropPart(bin)));
      dropping = dropping.filter((_, i) => !gone[i]);
      dropped += gone.filter(Boolean).length;
      await rest?.(performance.now() - startedAt);
    }
    return dropped;
  }

  /** One call of a bin's drop: true once the bin is gone. */
  async #dropPart(bin: string): Promise<boolean> {
    const [, gone] = (await this.#dropBin([], [this.#keyPrefix, bin, binTag(bin), DROP_KEYS_PER_CALL])) as [
      number,
      number,
    ];
    return gone === 1;
  }

  async sweepTombstones(ttlMs: number, limit: number): Promise<TombstoneSweep> {
    const [examined, dropped, ...droppedStrings] = (await this.#sweepTombstones(
      [],
      [this.#keyPrefix, ttlMs, limit],
    )) as [number, number, ...string[]];
    // A cached deletion the sweep dropped would outrank an older entry the store now accepts.
    for (const key of droppedStrings) this.#cache.forget(key);
    return { examined, dropped };
  }

  async loadClockReservation(): Promise<bigint> {
    const stored = await this.#connection.call(() => this.#pipeline.send<string | null>("get", "clock"));
    return stored === null ? 0n : BigInt(`0x${stored}`);
  }

  async raiseClockReservation(reservation: bigint): Promise<bigint> {
    const stored = await this.#raiseClock(["clock"], [reservation.toString(16).padStart(16, "0")]);
    return BigInt(`0x${String(stored)}`);
  }

  async loadMembership(): Promise<string | null> {
    return this.#connection.call(() => this.#pipeline.send<string | null>("get", "members"));
  }

  async saveMembership(records: string): Promise<void> {
    await this.#connection.call(() => this.#pipeline.send("set", "members", records));
  }

  async stats(): Promise<StoreStats> {
    const [bins, keys, lists] = await this.#connection.call(() =>
      Promise.all([
        this.#pipeline.send<number>("zcard", "bins"),
        this.#pipeline.send<string | null>("get", "n:keys"),
        this.#pipeline.send<string | null>("get", "n:lists"),
      ]),
    );
    return { bins, keys: Number(keys ?? 0), lists: Number(lists ?? 0) };
  }

  /**
   * Resolves once connected to Redis; rejects with UnavailableError after
   * timeoutMs, or at once when Redis refused the appendfsync asked for.
   */
  waitUntilReady(timeoutMs = 5000): Promise<void> {
    return this.#connection.waitUntilReady(timeoutMs);
  }

  async ping(): Promise<void> {
    await this.#connection.ping();
  }

  async close(): Promise<void> {
    this.#connection.close();
  }
}
