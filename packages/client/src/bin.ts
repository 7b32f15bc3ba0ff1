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
import type { ClientSession } from "./client-session.js";
import { readFromReplicas } from "./read-path.js";
import { type WriteKind, writeToReplicas } from "./write-path.js";

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

  async get(key: string): Promise<string | null> {
    const { get } = await this.#read((target) => ({ get: { target, key } }));
    if (get?.stamp) this.session.observeClock(wireToBigint(get.stamp.clock));
    return get?.found ? get.value : null;
  }

  async set(key: string, value: string): Promise<true> {
    await this.#write("set", key, value);
    return true;
  }

  async keys(pattern: KeyPattern = {}): Promise<string[]> {
    const { keys } = await this.#read((target) => ({ keys: { target, ...pattern } }));
    return keys?.keys ?? [];
  }

  async listGet(key: string): Promise<string[]> {
    const { listGet } = await this.#read((target) => ({ listGet: { target, key } }));
    return listGet?.values ?? [];
  }

  async listAppend(key: string, value: string): Promise<true> {
    await this.#write("listAppend", key, value);
    return true;
  }

  async listRemove(key: string, value: string): Promise<number> {
    return Number((await this.#write("listRemove", key, value)).removed);
  }

  async listKeys(pattern: KeyPattern = {}): Promise<string[]> {
    const { keys } = await this.#read((target) => ({ listKeys: { target, ...pattern } }));
    return keys?.keys ?? [];
  }

  /**
   * Ticks the first ready replica's clock, then raises the other replicas to
   * past the value, so a later call returns more even after that replica died.
   */
  async clock(atLeast = 0n): Promise<bigint> {
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
  }
}
