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
//   lv:<bin><key>  ZSET of the live appends by value (member sha1hex(value) .. stamp, score 0),
//                  so a remove touches only its value's appends
//   lb:<bin><key>  bytes of the live appends, for MAX_LIST_BYTES (value bytes + 64 each)
//   lt:<bin><key>  HASH value -> stamp of its latest remove (tombstone)
//   lk:<bin>       SET of non-empty list keys; la:<bin> every list key with an entry
//   bins           ZSET of bin names scored by ring point (range scans for repair)
//   rr:<stamp>     removed count of a remove entry, for retries (expires)
//   ra:<stamp>     an append a remove deleted here, for its retries (expires)
//   n:keys n:lists counts of non-empty keys and lists; clock: clock reservation
//   gc             ZSET of tombstones by when they were stored here (sweep-tombstones.lua)
//
// String reads are answered from memory when they can (string-cache.ts). A
// Redis that restarted under a running backend may have lost entries the
// backend acknowledged (an append-only file lags, or there is none): the
// engine tells its listeners (onReset), and the backend stops serving reads
// until keepers have refilled it (HAZARDS.md 4).
import { readFileSync } from "node:fs";
import {
  type ApplyOutcome,
  decodeStamp,
  type Entry,
  encodeStamp,
  type KeyPattern,
  MESSAGE_BUDGET_BYTES,
  matchesPattern,
  ResourceExhaustedError,
  RING_SIZE,
  type RingRange,
  ringPoint,
  StoreUnavailableError,
  TurnBatch,
  UnavailableError,
} from "@binring/core";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import {
  LIST_ELEMENT_OVERHEAD_BYTES,
  listLimitError,
  MAX_LIST_BYTES,
  REMOVE_RESULT_TTL_SECONDS,
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
/** Pause before asking a connected Redis for its run_id again after the question failed. */
const VERIFY_RETRY_MS = 200;
/** Bins read (Scan) or deleted (Drop, one script call each) per round of pipelined calls. */
const BINS_PER_ROUND = 64;
/**
 * How long a Redis call may go unanswered before it fails UNAVAILABLE: a hung
 * Redis (paused, swapping, stuck on a disk) fails calls instead of piling
 * them up. Far longer than a call takes in normal operation.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 5000;
/** Pause before trying again to set the durability Redis refused (appendfsync). */
const DURABILITY_RETRY_MS = 1000;

function loadScript(name: string): string {
  return readFileSync(new URL(`../lua/${name}.lua`, import.meta.url), "utf8");
}

function binTag(bin: string): string {
  return `${Buffer.byteLength(bin, "utf8")}:${bin}`;
}

/** The Redis key (before the key prefix) of a string key's entry. */
function stringKey(bin: string, key: string): string {
  return `s:${binTag(bin)}${key}`;
}

type ScriptRunner = (keys: string[], args: (string | number)[]) => Promise<unknown>;

interface PendingApply {
  entries: readonly Entry[];
  decides: boolean;
  limited: boolean;
  resolve(outcomes: ApplyOutcome[]): void;
  reject(error: unknown): void;
}

/** Most entries in one script call: bounds how long one call holds Redis. */
const ENTRIES_PER_SCRIPT_CALL = 1000;

/**
 * A request with more entries than one script call takes (a repair copying a
 * bin with a long list) as parts that do, resolved together: one call with all
 * of them would pass the script more arguments than a JavaScript call can
 * spread ("Maximum call stack size exceeded" past ~20,000 entries), and that
 * bin could never be copied. Entries are idempotent, so the parts need not be
 * applied atomically.
 */
function splitApply(request: PendingApply): PendingApply[] {
  if (request.entries.length <= ENTRIES_PER_SCRIPT_CALL) return [request];
  const parts: PendingApply[] = [];
  const outcomes: Promise<ApplyOutcome[]>[] = [];
  for (let i = 0; i < request.entries.length; i += ENTRIES_PER_SCRIPT_CALL) {
    outcomes.push(
      new Promise((resolve, reject) =>
        parts.push({
          entries: request.entries.slice(i, i + ENTRIES_PER_SCRIPT_CALL),
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
}

export class RedisEngine implements StoreEngine {
  readonly #redis: Redis;
  readonly #pipeline: TurnPipeline;
  readonly #keyPrefix: string;
  readonly #applyEntries: ScriptRunner;
  readonly #raiseClock: ScriptRunner;
  readonly #sweepTombstones: ScriptRunner;
  readonly #dropBin: ScriptRunner;
  readonly #applies = new TurnBatch<PendingApply>((pending) => this.#applyInChunks(pending));
  readonly #cache: StringCache;
  /** Redis's run_id at the first connection: another one after a reconnect means Redis restarted. */
  #runId: string | undefined;
  /** From a lost connection until the server reconnected to is known to be the same Redis process. */
  #verified = false;
  readonly #onVerified: (() => void)[] = [];
  readonly #resetListeners: ((reason: string) => void)[] = [];
  readonly #commandTimeoutMs: number;
  readonly #appendfsync: "always" | "everysec" | undefined;
  readonly #logger: Logger | undefined;
  /** Counts lost connections, so a verification that outlived its connection does not count. */
  #connection = 0;
  /** Why Redis refused the durability setting on this connection; calls fail with it until it takes it. */
  #durabilityRefused: string | undefined;

  constructor(options: RedisEngineOptions) {
    this.#commandTimeoutMs = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
    this.#appendfsync = options.appendfsync;
    this.#logger = options.logger;
    this.#redis = new Redis(options.url, {
      keyPrefix: options.keyPrefix ?? "",
      // Off: ioredis 5.11's auto-pipelining can misalign replies with callbacks and throw
      // "results[i] is not iterable" outside any promise, crashing the process (redis/ioredis#1931;
      // seen in a 10-minute soak). Entries are batched per event-loop turn here anyway.
      enableAutoPipelining: false,
      // Fail fast while Redis is away (the caller gets UNAVAILABLE and retries
      // elsewhere); ioredis keeps reconnecting in the background.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // A hung Redis (SIGSTOP, a stuck disk) keeps its connection open: fail calls, do not queue them.
      commandTimeout: this.#commandTimeoutMs,
      lazyConnect: false,
      retryStrategy: (attempt) => Math.min(50 * attempt, 1000),
    });
    // Errors surface through the commands that fail; without a listener ioredis would print them.
    this.#redis.on("error", () => {});
    this.#cache = new StringCache(options.readCacheBytes ?? DEFAULT_READ_CACHE_BYTES);
    this.#redis.on("close", () => {
      this.#connection++;
      this.#verified = false;
      this.#cache.clear();
    });
    this.#redis.on("ready", () => void this.#verify());
    this.#pipeline = new TurnPipeline(this.#redis);
    this.#keyPrefix = options.keyPrefix ?? "";
    this.#applyEntries = this.#define("applyEntries", "apply-entries", 0);
    this.#raiseClock = this.#define("raiseClock", "raise-clock", 1);
    this.#sweepTombstones = this.#define("sweepTombstones", "sweep-tombstones", 0);
    this.#dropBin = this.#define("dropBin", "drop-bin", 0);
  }

  #define(name: string, file: string, numberOfKeys: number): ScriptRunner {
    this.#redis.defineCommand(name, { lua: loadScript(file), numberOfKeys });
    const command = (
      this.#redis as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>
    )[name]!.bind(this.#redis);
    return (keys, args) => this.#call(() => command(...keys, ...args));
  }

  onReset(listener: (reason: string) => void): void {
    this.#resetListeners.push(listener);
  }

  /**
   * Checks that the Redis just (re)connected to is the process this engine
   * has been writing to. Until then no call goes through, so a backend never
   * answers from a restarted Redis before its listeners know (they may call
   * the store themselves).
   */
  async #verify(): Promise<void> {
    const connection = this.#connection;
    let runId: string | undefined;
    try {
      runId = /run_id:(\w+)/.exec(await this.#redis.info("server"))?.[1];
    } catch {
      // The connection went again (its next "ready" verifies), or the INFO failed on a live one.
    }
    if (connection !== this.#connection) return;
    if (runId === undefined) {
      if (this.#redis.status === "ready") setTimeout(() => void this.#verify(), VERIFY_RETRY_MS).unref();
      return;
    }
    if (!(await this.#setDurability(connection))) return;
    const previous = this.#runId;
    this.#runId = runId;
    this.#verified = true;
    // In the same synchronous step as the line above: no call reaches the restarted Redis before the listeners ran.
    if (previous !== undefined && runId !== previous) {
      this.#cache.clear();
      const reason = `redis restarted (run_id ${previous} -> ${runId}): it may have lost acknowledged entries`;
      for (const listener of this.#resetListeners) listener(reason);
    }
    for (const resolve of this.#onVerified.splice(0)) resolve();
  }

  /**
   * Sets the append-only file's sync policy asked for, on the connection being
   * verified. Returns whether the verification may go on: false when the
   * connection went meanwhile (its next "ready" verifies) or Redis refused
   * (tried again after DURABILITY_RETRY_MS; calls fail naming the refusal).
   */
  async #setDurability(connection: number): Promise<boolean> {
    if (this.#appendfsync === undefined) return true;
    try {
      await this.#redis.config("SET", "appendonly", "yes");
      await this.#redis.config("SET", "appendfsync", this.#appendfsync);
    } catch (error) {
      if (connection !== this.#connection) return false;
      const message = error instanceof Error ? error.message : String(error);
      const refused = `redis refused CONFIG SET appendonly yes / appendfsync ${this.#appendfsync} (${message}); writes would not be as durable as asked, so the backend takes none until it can set them (allow CONFIG to its Redis user, or configure Redis's append-only file yourself and leave appendfsync unset)`;
      if (refused !== this.#durabilityRefused) this.#logger?.error({ err: error }, refused);
      this.#durabilityRefused = refused;
      for (const wake of this.#onVerified.splice(0)) wake();
      setTimeout(() => {
        if (connection === this.#connection && this.#redis.status === "ready") void this.#verify();
      }, DURABILITY_RETRY_MS).unref();
      return false;
    }
    if (connection !== this.#connection) return false;
    if (this.#durabilityRefused !== undefined) this.#logger?.info("redis took the durability setting now");
    this.#durabilityRefused = undefined;
    return true;
  }

  /**
   * Runs a Redis call, turning connection failures and timeouts into
   * UnavailableError, and a Redis that cannot take the call now (BUSY: a
   * script runs; OOM: maxmemory reached) into ResourceExhaustedError: that
   * call did nothing and the store lost nothing, so the backend stays ready
   * and the caller retries or fails, without skipping this replica.
   */
  async #call<T>(run: () => Promise<T>): Promise<T> {
    if (this.#redis.status !== "ready" || !this.#verified) {
      throw new StoreUnavailableError(
        this.#durabilityRefused !== undefined && this.#redis.status === "ready"
          ? this.#durabilityRefused
          : `redis is ${this.#verified ? this.#redis.status : "reconnecting"}; the backend reconnects by itself`,
      );
    }
    try {
      return await run();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/^BUSY\s/.test(message))
        throw new ResourceExhaustedError(`store busy: ${message} (the call did nothing; retry it)`);
      if (/^OOM\s/.test(message))
        throw new ResourceExhaustedError(
          `store out of memory: ${message} (the call did nothing); raise maxmemory or delete data`,
        );
      if (/^Command timed out/.test(message))
        throw new StoreUnavailableError(
          `redis did not answer within ${this.#commandTimeoutMs} ms; the call may or may not have been applied`,
          { cause: error },
        );
      if (/ERR|WRONGTYPE|NOSCRIPT/.test(message) && !/Connection|closed|writeable/i.test(message))
        throw error;
      throw new StoreUnavailableError(`redis: ${message}`, { cause: error });
    }
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

  #applyInChunks(pending: PendingApply[]): void {
    let chunk: PendingApply[] = [];
    let size = 0;
    let bytes = 0;
    for (const request of pending.flatMap((request) => splitApply(request))) {
      chunk.push(request);
      size += request.entries.length;
      for (const entry of request.entries) bytes += entry.value.length + entry.key.length;
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

  async #applyChunk(chunk: PendingApply[]): Promise<void> {
    const startedAt = this.#cache.epoch;
    const args: (string | number)[] = [
      this.#keyPrefix,
      REMOVE_RESULT_TTL_SECONDS,
      MAX_LIST_BYTES,
      LIST_ELEMENT_OVERHEAD_BYTES,
    ];
    for (const { entries, decides, limited } of chunk) {
      for (const entry of entries) {
        args.push(entry.kind, binTag(entry.bin), entry.key, encodeStamp(entry.stamp), entry.value);
        args.push(ringPoint(entry.bin), entry.bin, decides ? 1 : 0, limited ? 1 : 0);
      }
    }
    try {
      const results = (await this.#applyEntries([], args)) as number[];
      let next = 0;
      for (const { entries, resolve, reject } of chunk) {
        // Refused appends fail only the request they belong to; the others' entries were applied.
        let refused: Error | undefined;
        const outcomes = entries.map((entry) => {
          const result = Number(results[next++] ?? 0);
          if (entry.kind === "set" && result === 1) {
            // The entry is the key's value now.
            const stored = { stamp: entry.stamp, value: entry.value };
            this.#cache.observe(stringKey(entry.bin, entry.key), stored, startedAt);
          }
          if (entry.kind === "append" && result <= -3)
            refused ??= listLimitError(entry.key, -3 - result, entry.value);
          if (entry.kind !== "remove") return { removed: 0, superseded: result === -1, countDecided: false };
          // A count decided by the remove's writer comes back as is, any other as -2 - count.
          return result >= 0
            ? { removed: result, superseded: false, countDecided: true }
            : { removed: -2 - result, superseded: false, countDecided: false };
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
    const raw = await this.#call(() => this.#pipeline.send<string | null>("get", redisKey));
    const stored =
      raw === null
        ? null
        : { stamp: decodeStamp(raw.slice(0, STAMP_LENGTH)), value: raw.slice(STAMP_LENGTH) };
    this.#cache.observe(redisKey, stored, startedAt);
    return stored;
  }

  async keys(bin: string, pattern: KeyPattern): Promise<string[]> {
    const keys = await this.#call(() => this.#pipeline.send<string[]>("smembers", `k:${binTag(bin)}`));
    return keys.filter((key) => matchesPattern(key, pattern)).sort();
  }

  async getList(bin: string, key: string): Promise<string[]> {
    const members = await this.#call(() =>
      this.#pipeline.send<string[]>("zrange", `l:${binTag(bin)}${key}`, 0, -1),
    );
    return members.map((member) => member.slice(STAMP_LENGTH));
  }

  async listKeys(bin: string, pattern: KeyPattern): Promise<string[]> {
    const keys = await this.#call(() => this.#pipeline.send<string[]>("smembers", `lk:${binTag(bin)}`));
    return keys.filter((key) => matchesPattern(key, pattern)).sort();
  }

  async *scan(ranges: readonly RingRange[], batchSize: number): AsyncIterable<Entry[]> {
    const bins = await this.#binsIn(ranges);
    let batch: Entry[] = [];
    let bytes = 0;
    for (let i = 0; i < bins.length; i += BINS_PER_ROUND) {
      const entriesPerBin = await Promise.all(
        bins.slice(i, i + BINS_PER_ROUND).map((bin) => this.#binEntries(bin)),
      );
      // Entry by entry, so that a bin with a long list still travels in batches of batchSize and of about
      // MESSAGE_BUDGET_BYTES (values may be megabytes each).
      for (const entries of entriesPerBin) {
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

  async #binEntries(bin: string): Promise<Entry[]> {
    const tag = binTag(bin);
    const [stringKeys, listKeys] = await this.#call(() =>
      Promise.all([
        this.#pipeline.send<string[]>("smembers", `ka:${tag}`),
        this.#pipeline.send<string[]>("smembers", `la:${tag}`),
      ]),
    );
    const entries: Entry[] = [];
    const strings = await this.#call(() =>
      Promise.all(stringKeys.map((key) => this.#pipeline.send<string | null>("get", `s:${tag}${key}`))),
    );
    stringKeys.forEach((key, i) => {
      const stored = strings[i];
      if (stored == null) return;
      const stamp = decodeStamp(stored.slice(0, STAMP_LENGTH));
      entries.push({ bin, key, kind: "set", value: stored.slice(STAMP_LENGTH), stamp });
    });
    const lists = await this.#call(() =>
      Promise.all(
        listKeys.map((key) =>
          Promise.all([
            this.#pipeline.send<string[]>("zrange", `l:${tag}${key}`, 0, -1),
            this.#pipeline.send<Record<string, string>>("hgetall", `lt:${tag}${key}`),
          ]),
        ),
      ),
    );
    listKeys.forEach((key, i) => {
      const [appends, tombstones] = lists[i]!;
      for (const member of appends) {
        const stamp = decodeStamp(member.slice(0, STAMP_LENGTH));
        entries.push({ bin, key, kind: "append", value: member.slice(STAMP_LENGTH), stamp });
      }
      for (const [value, stamp] of Object.entries(tombstones)) {
        entries.push({ bin, key, kind: "remove", value, stamp: decodeStamp(stamp) });
      }
    });
    return entries;
  }

  async #binsIn(ranges: readonly RingRange[]): Promise<string[]> {
    const intervals: [number, number][] = [];
    for (const { start, end } of ranges) {
      if (start < end) intervals.push([start, end]);
      else {
        intervals.push([start, RING_SIZE]);
        if (end > 0) intervals.push([0, end]);
      }
    }
    const found = await this.#call(() =>
      Promise.all(
        intervals.map(([from, to]) => this.#pipeline.send<string[]>("zrangebyscore", "bins", from, `(${to}`)),
      ),
    );
    return [...new Set(found.flat())];
  }

  async drop(ranges: readonly RingRange[]): Promise<number> {
    try {
      return await this.#drop(ranges);
    } finally {
      // Reads that raced the deletes may have cached entries that are gone now.
      this.#cache.clear();
    }
  }

  async #drop(ranges: readonly RingRange[]): Promise<number> {
    const bins = await this.#binsIn(ranges);
    for (let i = 0; i < bins.length; i += BINS_PER_ROUND) {
      await Promise.all(
        bins
          .slice(i, i + BINS_PER_ROUND)
          .map((bin) => this.#dropBin([], [this.#keyPrefix, bin, binTag(bin)])),
      );
    }
    return bins.length;
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
    const stored = await this.#call(() => this.#pipeline.send<string | null>("get", "clock"));
    return stored === null ? 0n : BigInt(`0x${stored}`);
  }

  async raiseClockReservation(reservation: bigint): Promise<bigint> {
    const stored = await this.#raiseClock(["clock"], [reservation.toString(16).padStart(16, "0")]);
    return BigInt(`0x${String(stored)}`);
  }

  async stats(): Promise<StoreStats> {
    const [bins, keys, lists] = await this.#call(() =>
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
  async waitUntilReady(timeoutMs = 5000): Promise<void> {
    if (this.#redis.status === "ready" && this.#verified) return;
    if (this.#redis.status === "ready" && this.#durabilityRefused !== undefined)
      throw new StoreUnavailableError(this.#durabilityRefused);
    await new Promise<void>((resolve, reject) => {
      // Woken when verified, or when Redis refused the durability asked for (rejects at once, naming it).
      const onVerified = () => {
        clearTimeout(timer);
        if (this.#verified) resolve();
        else reject(new StoreUnavailableError(this.#durabilityRefused ?? "redis went away"));
      };
      const timer = setTimeout(() => {
        const waiting = this.#onVerified.indexOf(onVerified);
        if (waiting >= 0) this.#onVerified.splice(waiting, 1);
        reject(
          new UnavailableError(`redis not reachable within ${timeoutMs} ms (status ${this.#redis.status})`),
        );
      }, timeoutMs);
      this.#onVerified.push(onVerified);
    });
  }

  async ping(): Promise<void> {
    await this.#call(() => this.#redis.ping());
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}
