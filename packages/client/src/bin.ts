// One bin of a cluster, offering the Storage contract on its replicas: reads
// go through read-path.ts, writes through write-path.ts.
import {
  bigintToWire,
  checkClock,
  type KeyPattern,
  type Operation,
  type OperationResult__Output,
  type Storage,
  type Target,
  wireToBigint,
} from "@binring/core";
import { NO_METRICS } from "./client-metrics.js";
import type { ClientSession } from "./client-session.js";
import { readFromReplicas } from "./read-path.js";
import { writeToReplicas } from "./write-path.js";
import type { WriteKind } from "./write-request.js";

export class Bin implements Storage {
  constructor(
    private readonly session: ClientSession,
    readonly name: string,
    /** The bin's point on the ring. */
    readonly point: number,
  ) {}

  #read(operation: (target: Target) => Operation): Promise<OperationResult__Output> {
    return readFromReplicas(this.session, this.name, this.point, operation);
  }

  #write(kind: WriteKind, key: string, value: string) {
    return writeToReplicas(this.session, this.name, this.point, kind, key, value);
  }

  /** Runs one call of the Storage contract, reporting its outcome and duration (client-metrics.ts). */
  async #observed<T>(operation: string, run: () => Promise<T>): Promise<T> {
    const { observer, time } = this.session;
    // Without a registry the call path stays as it was: no clock reads, no extra await.
    if (observer === NO_METRICS) return run();
    const start = time.now();
    try {
      const result = await run();
      observer.operation(operation, (time.now() - start) / 1000);
      return result;
    } catch (error) {
      observer.operation(operation, (time.now() - start) / 1000, error);
      throw error;
    }
  }

  async get(key: string): Promise<string | null> {
    return this.#observed("get", async () => {
      const { get } = await this.#read((target) => ({ get: { target, key } }));
      if (get?.stamp) this.session.observeClock(wireToBigint(get.stamp.clock));
      return get?.found ? get.value : null;
    });
  }

  async set(key: string, value: string): Promise<true> {
    return this.#observed("set", async () => {
      await this.#write("set", key, value);
      return true as const;
    });
  }

  async keys(pattern: KeyPattern = {}): Promise<string[]> {
    return this.#observed("keys", async () => {
      const { keys } = await this.#read((target) => ({ keys: { target, ...pattern } }));
      return keys?.keys ?? [];
    });
  }

  async listGet(key: string): Promise<string[]> {
    return this.#observed("listGet", async () => {
      const { listGet } = await this.#read((target) => ({ listGet: { target, key } }));
      return listGet?.values ?? [];
    });
  }

  async listAppend(key: string, value: string): Promise<true> {
    return this.#observed("listAppend", async () => {
      await this.#write("listAppend", key, value);
      return true as const;
    });
  }

  async listRemove(key: string, value: string): Promise<number> {
    return this.#observed("listRemove", async () => {
      return Number((await this.#write("listRemove", key, value)).removed);
    });
  }

  async listKeys(pattern: KeyPattern = {}): Promise<string[]> {
    return this.#observed("listKeys", async () => {
      const { keys } = await this.#read((target) => ({ listKeys: { target, ...pattern } }));
      return keys?.keys ?? [];
    });
  }

  /**
   * Ticks the first ready replica's clock, then raises the other replicas to
   * past the value, so a later call returns more even after that replica died.
   */
  async clock(atLeast = 0n): Promise<bigint> {
    return this.#observed("clock", async () => {
      checkClock("atLeast", atLeast);
      const clock = wireToBigint(
        (await this.#read((target) => ({ clock: { target, atLeast: bigintToWire(atLeast) } }))).clock?.clock,
      );
      // A replica that misses the raise (down, slow) is behind; it catches up through keepers' clock sync.
      const floor = {
        clock: {
          target: this.session.target(this.name, false),
          atLeast: bigintToWire(clock + 1n),
          raiseOnly: true,
        },
      };
      await Promise.all(
        this.session
          .placement(this.point)
          .replicas.map((address) => this.session.transport.execute(address, floor).catch(() => undefined)),
      );
      this.session.observeClock(clock);
      return clock;
    });
  }
}
