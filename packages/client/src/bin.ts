// One bin of a cluster, offering the Storage contract on its replicas.
//
// Write: stamp the entry with the clock of the replica a read would use (the
// first ready one: it holds every acknowledged entry of the bin, so its clock
// is past all their stamps), then apply it to the replicas from the last
// backup to the primary, one after another. Whatever a reader can see on the
// first replica is therefore already on the others (HAZARDS.md 1). The write
// is acknowledged once every live replica has it.
//
// Read: from the first replica that answers and is ready, falling through to
// the next; a later replica holds everything an earlier one shows.
import {
  bigintToWire,
  checkClock,
  checkTransportable,
  InvalidArgumentError,
  type KeyPattern,
  type OperationResult__Output,
  OutcomeUnknownError,
  type Stamp,
  type Storage,
  stampToWire,
  type Target,
  TimeoutError,
  UnavailableError,
  type WriteReply__Output,
  wireToBigint,
} from "@binring/core";
import type { BackendChannel } from "./backend-channel.js";
import type { BinClient } from "./bin-client.js";
import { refusesConnections } from "./connection-probe.js";
import { classifyFailure, reportsRefusedConnection } from "./failure-kind.js";
import { mustRestamp, reportedReply } from "./remove-count.js";
import { writeOrder } from "./sabotage.js";

type WriteKind = "set" | "listAppend" | "listRemove";

/** Pause between rounds when no replica could serve, growing to this cap. */
const MAX_RETRY_PAUSE_MS = 200;

/** The write's stamp was superseded on a replica: apply it again under a new stamp, at once. */
class RestampError extends Error {}

/** A replica that failed this way holds no readable state a later read could contradict. */
function servesNoReads(error: unknown): boolean {
  const kind = classifyFailure(error);
  return kind === "gone" || kind === "not-ready";
}

function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(10 * 2 ** attempt, MAX_RETRY_PAUSE_MS)));
}

export class Bin implements Storage {
  constructor(
    private readonly client: BinClient,
    readonly name: string,
    /** The bin's point on the ring. */
    readonly point: number,
  ) {}

  #target(requireReady: boolean): Target {
    return { bin: this.name, epoch: bigintToWire(this.client.epoch), requireReady };
  }

  async get(key: string): Promise<string | null> {
    const { get } = await this.#read((target) => ({ get: { target, key } }));
    if (get?.stamp) this.client.observeClock(wireToBigint(get.stamp.clock));
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
      clock: { target: this.#target(false), atLeast: bigintToWire(clock + 1n), raiseOnly: true },
    };
    await Promise.all(
      this.client.placement(this.point).replicas.map((address) =>
        this.client
          .channel(address)
          .execute(floor)
          .catch(() => undefined),
      ),
    );
    this.client.observeClock(clock);
    return clock;
  }

  /**
   * Runs a read on the first replica that can serve it, until the deadline.
   * It falls through to the next replica only past one that serves no reads
   * (gone, or not ready). One that is slow or paused may still be ready, and
   * a later replica may show a write that is still on its way to it: reading
   * there and then here could go back in time. So the read waits for it, or
   * for the keepers to declare it dead, which removes it from placement.
   * The request is rebuilt per attempt: it carries the current view's epoch.
   */
  async #read(
    operation: (target: Target) => Parameters<BackendChannel["execute"]>[0],
    deadline = Date.now() + this.client.callTimeoutMs,
  ): Promise<OperationResult__Output> {
    let lastError: unknown;
    for (let attempt = 0; ; attempt++) {
      for (const address of this.client.placement(this.point).replicas) {
        try {
          return await this.client.channel(address).execute(operation(this.#target(true)));
        } catch (error) {
          await this.#noteFailure(address, error);
          lastError = error;
          if (!servesNoReads(error)) break;
        }
      }
      if (Date.now() >= deadline) throw this.#gaveUp("read", lastError);
      await Promise.all([pause(attempt), this.client.view.refresh()]);
    }
  }

  /**
   * A stamp above every acknowledged entry of the bin: the clock of the first
   * ready replica, which holds all of them (an acknowledged entry is on every
   * replica that was live, and a replica only becomes ready once filled), and
   * above anything this client has seen. Read like any read, without ticking.
   */
  async #stamp(deadline: number): Promise<Stamp> {
    const atLeast = bigintToWire(this.client.clockSeen);
    const { clock } = await this.#read(
      (target) => ({ clock: { target, atLeast, raiseOnly: true } }),
      deadline,
    );
    return { clock: wireToBigint(clock?.clock), writer: this.client.writer, seq: this.client.nextSeq() };
  }

  /** Stamps an entry and applies it to every live replica, last backup first. */
  async #write(kind: WriteKind, key: string, value: string): Promise<WriteReply__Output> {
    checkTransportable(key, value);
    const deadline = Date.now() + this.client.callTimeoutMs;
    let stamp = await this.#stamp(deadline);
    const entry = { target: this.#target(false), key, value, stamp: stampToWire(stamp) };
    const applied = new Map<string, WriteReply__Output>();
    let lastError: unknown;
    for (let attempt = 0; ; attempt++) {
      const { replicas } = this.client.placement(this.point);
      try {
        if (replicas.length === 0) throw lastError ?? this.#noReplica();
        for (const address of writeOrder(replicas, this.client.sabotage)) {
          if (applied.has(address)) continue;
          entry.target = this.#target(false);
          const reply = (await this.#on(address, { [kind]: entry })).write!;
          applied.set(address, reply);
          if (reply.superseded && mustRestamp(replicas, applied)) {
            // A remove of this value, stamped above this append, got here first and did not count
            // it: the append would never show. Start over, stamped above the remove; the copies
            // applied so far are removed by it wherever it lands (remove-count.ts).
            this.client.observeClock(wireToBigint(reply.clock));
            stamp = await this.#stamp(deadline);
            entry.stamp = stampToWire(stamp);
            applied.clear();
            throw new RestampError();
          }
        }
        this.client.observeClock(stamp.clock);
        return reportedReply(replicas, applied)!;
      } catch (error) {
        if (error instanceof RestampError) continue;
        if (classifyFailure(error) === "fatal") throw this.#refused(error, applied.size);
        lastError = error;
      }
      if (Date.now() >= deadline) throw this.#gaveUp("write", lastError);
      await Promise.all([pause(attempt), this.client.view.refresh()]);
    }
  }

  /** One call to one replica (for a write); a failure is noted and rethrown. */
  async #on(
    address: string,
    operation: Parameters<BackendChannel["execute"]>[0],
  ): Promise<OperationResult__Output> {
    try {
      return await this.client.channel(address).execute(operation);
    } catch (error) {
      await this.#noteFailure(address, error);
      throw error;
    }
  }

  /**
   * Acts on a failed call: a fatal one is rethrown; a replica that is gone
   * leaves this client's placement, so writes skip it. A refused connection
   * counts as gone only if a fresh connection attempt is refused too (a
   * channel in reconnect backoff repeats its last error): skipping a live
   * replica would let a write be acknowledged without it.
   */
  async #noteFailure(address: string, error: unknown): Promise<void> {
    const kind = classifyFailure(error);
    if (kind === "fatal") throw error;
    if (kind === "gone" && (!reportsRefusedConnection(error) || (await refusesConnections(address)))) {
      this.client.reachability.markDown(address, (error as Error).message);
    }
    // A newer view may drop a dead replica or reveal a newer epoch: fetch it (rate-limited).
    if (kind !== "not-ready") void this.client.view.refresh();
  }

  /**
   * A replica refused the write for good. If others already took it (replicas
   * can differ: a list at its limit on one of them only), it may still take
   * effect, so the caller must not be told it failed.
   */
  #refused(error: unknown, appliedOn: number): unknown {
    if (appliedOn === 0) return error;
    return new OutcomeUnknownError(
      `write in bin ${JSON.stringify(this.name)} was taken by ${appliedOn} replica(s), then refused by another; it may or may not take effect: ${(error as Error).message}`,
    );
  }

  #noReplica(): UnavailableError {
    return new UnavailableError(`no backend of bin ${JSON.stringify(this.name)} is reachable`);
  }

  #gaveUp(what: string, lastError: unknown): Error {
    if (lastError instanceof InvalidArgumentError) return lastError;
    const failure = lastError ?? this.#noReplica();
    const reason = failure instanceof Error ? failure.message : String(failure);
    return new TimeoutError(
      `${what} in bin ${JSON.stringify(this.name)} did not complete within ${this.client.callTimeoutMs} ms: ${reason}`,
    );
  }
}
