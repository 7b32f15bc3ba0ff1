// The connection to a backend's own Redis, and what makes it trustworthy:
// after every (re)connection no call goes through until the server is known
// to be the same Redis process as before (its run_id) and has taken the
// durability asked for; a different process means a restarted Redis that may
// have lost acknowledged entries, and the listeners hear of it before any call
// reaches it (HAZARDS.md 4). Every call's failure is mapped to the store
// errors the backend reports.
import { readFileSync } from "node:fs";
import { ResourceExhaustedError, StoreUnavailableError, UnavailableError } from "@binring/core";
import { Redis, type RedisOptions } from "ioredis";
import type { Logger } from "pino";

/** Pause before asking a connected Redis for its run_id again after the question failed. */
const VERIFY_RETRY_MS = 200;
/**
 * How long a Redis call may go unanswered before it fails UNAVAILABLE: a hung
 * Redis (paused, swapping, stuck on a disk) fails calls instead of piling
 * them up. Far longer than a call takes in normal operation.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 5000;
/** Pause before trying again to set the durability Redis refused (appendfsync). */
const DURABILITY_RETRY_MS = 1000;

/**
 * Where a Redis URL points, as ioredis takes it: `redis://[:PASSWORD@]HOST:PORT[/DB]`, or
 * `unix:///PATH/redis.sock[?password=PASSWORD]` for a Redis on this machine's Unix socket, which
 * costs both processes less per call than loopback TCP (bench/results/NOTES.md).
 */
export function unixSocketAddress(url: string): { path: string; password?: string } | undefined {
  if (!url.startsWith("unix://")) return undefined;
  const parsed = new URL(url);
  const password = parsed.searchParams.get("password");
  return { path: decodeURIComponent(parsed.pathname), ...(password === null ? {} : { password }) };
}

export type ScriptRunner = (keys: string[], args: (string | number | Buffer)[]) => Promise<unknown>;

export interface RedisConnectionOptions {
  url: string;
  keyPrefix: string;
  commandTimeoutMs: number;
  appendfsync: "always" | "everysec" | undefined;
  logger: Logger | undefined;
  /** Told how long each call took, in seconds (metrics). */
  observeCall: ((seconds: number) => void) | undefined;
}

export class RedisConnection {
  readonly redis: Redis;
  /** Redis's run_id at the first connection: another one after a reconnect means Redis restarted. */
  #runId: string | undefined;
  /** From a lost connection until the server reconnected to is known to be the same Redis process. */
  #verified = false;
  readonly #onVerified: (() => void)[] = [];
  readonly #resetListeners: ((reason: string) => void)[] = [];
  readonly #lostListeners: (() => void)[] = [];
  readonly #commandTimeoutMs: number;
  readonly #appendfsync: "always" | "everysec" | undefined;
  readonly #logger: Logger | undefined;
  readonly #observeCall: ((seconds: number) => void) | undefined;
  /** Counts lost connections, so a verification that outlived its connection does not count. */
  #connection = 0;
  /** Why Redis refused the durability setting on this connection; calls fail with it until it takes it. */
  #durabilityRefused: string | undefined;

  constructor(options: RedisConnectionOptions) {
    this.#commandTimeoutMs = options.commandTimeoutMs;
    this.#appendfsync = options.appendfsync;
    this.#logger = options.logger;
    this.#observeCall = options.observeCall;
    const socket = unixSocketAddress(options.url);
    const settings: RedisOptions = {
      keyPrefix: options.keyPrefix,
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
    };
    this.redis = socket ? new Redis({ ...settings, ...socket }) : new Redis(options.url, settings);
    // Errors surface through the commands that fail; without a listener ioredis would print them.
    this.redis.on("error", () => {});
    this.redis.on("close", () => {
      this.#connection++;
      this.#verified = false;
      for (const listener of this.#lostListeners) listener();
    });
    this.redis.on("ready", () => void this.#verify());
  }

  /** A script in lua/NAME.lua, run through call(). */
  define(name: string, file: string, numberOfKeys: number): ScriptRunner {
    this.redis.defineCommand(name, {
      lua: readFileSync(new URL(`../lua/${file}.lua`, import.meta.url), "utf8"),
      numberOfKeys,
    });
    const command = (
      this.redis as unknown as Record<string, (...args: (string | number | Buffer)[]) => Promise<unknown>>
    )[name]!.bind(this.redis);
    return (keys, args) => this.call(() => command(...keys, ...args));
  }

  /** Called when Redis restarted under this connection: it may have lost acknowledged entries. */
  onReset(listener: (reason: string) => void): void {
    this.#resetListeners.push(listener);
  }

  /** Called when the connection is lost (what was read through it may be stale by the next one). */
  onLost(listener: () => void): void {
    this.#lostListeners.push(listener);
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
      runId = /run_id:(\w+)/.exec(await this.redis.info("server"))?.[1];
    } catch {
      // The connection went again (its next "ready" verifies), or the INFO failed on a live one.
    }
    if (connection !== this.#connection) return;
    if (runId === undefined) {
      if (this.redis.status === "ready") setTimeout(() => void this.#verify(), VERIFY_RETRY_MS).unref();
      return;
    }
    if (!(await this.#setDurability(connection))) return;
    const previous = this.#runId;
    this.#runId = runId;
    this.#verified = true;
    // In the same synchronous step as the line above: no call reaches the restarted Redis before the listeners ran.
    if (previous !== undefined && runId !== previous) {
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
      await this.redis.config("SET", "appendonly", "yes");
      await this.redis.config("SET", "appendfsync", this.#appendfsync);
    } catch (error) {
      if (connection !== this.#connection) return false;
      const message = error instanceof Error ? error.message : String(error);
      const refused = `redis refused CONFIG SET appendonly yes / appendfsync ${this.#appendfsync} (${message}); writes would not be as durable as asked, so the backend takes none until it can set them (allow CONFIG to its Redis user, or configure Redis's append-only file yourself and leave appendfsync unset)`;
      if (refused !== this.#durabilityRefused) this.#logger?.error({ err: error }, refused);
      this.#durabilityRefused = refused;
      for (const wake of this.#onVerified.splice(0)) wake();
      setTimeout(() => {
        if (connection === this.#connection && this.redis.status === "ready") void this.#verify();
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
  async call<T>(run: () => Promise<T>): Promise<T> {
    if (this.redis.status !== "ready" || !this.#verified) {
      throw new StoreUnavailableError(
        this.#durabilityRefused !== undefined && this.redis.status === "ready"
          ? this.#durabilityRefused
          : `redis is ${this.#verified ? this.redis.status : "reconnecting"}; the backend reconnects by itself`,
      );
    }
    const startedMs = performance.now();
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
    } finally {
      this.#observeCall?.((performance.now() - startedMs) / 1000);
    }
  }

  /**
   * Resolves once connected to Redis; rejects with UnavailableError after
   * timeoutMs, or at once when Redis refused the appendfsync asked for.
   */
  async waitUntilReady(timeoutMs = 5000): Promise<void> {
    if (this.redis.status === "ready" && this.#verified) return;
    if (this.redis.status === "ready" && this.#durabilityRefused !== undefined)
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
          new UnavailableError(`redis not reachable within ${timeoutMs} ms (status ${this.redis.status})`),
        );
      }, timeoutMs);
      this.#onVerified.push(onVerified);
    });
  }

  async ping(): Promise<void> {
    await this.call(() => this.redis.ping());
  }

  close(): void {
    this.redis.disconnect();
  }
}
