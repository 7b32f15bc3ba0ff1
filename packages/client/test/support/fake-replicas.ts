// In-memory replicas behind a ReplicaTransport, each of which can be made to
// hang (paused), refuse connections (gone), fail its store, answer not ready,
// fence calls by a newer epoch, refuse stamps far above its clock, or answer appends superseded (a remove of the
// value got there first). Calls fail as BackendChannel fails them: with the
// error classes of @binring/core, and with TimeoutError when a replica does
// not answer within the per-call deadline.
import {
  ClockBehindError,
  ConnectionRefusedError,
  ListFullError,
  MAX_CLOCK_JUMP,
  NotReadyError,
  type Operation,
  type OperationResult__Output,
  type SetRequest,
  StaleEpochError,
  StoreUnavailableError,
  TimeoutError,
  wireToBigint,
} from "@binring/core";
import type { ReplicaTransport } from "../../src/replica-transport.js";
import type { VirtualTime } from "./virtual-time.js";

/** What a BackendChannel's calls wait for an answer (BinClient's backendCallTimeoutMs default). */
export const BACKEND_CALL_TIMEOUT_MS = 2000;

/** A uint64 as the request side of the wire types carries it. */
function fromWire(value: string | number | { toString(): string } | null | undefined): bigint {
  return BigInt(String(value ?? 0));
}

export class FakeReplica {
  /** Virtual time until which the replica answers nothing (Infinity: it hangs for good). */
  pausedUntil = 0;
  /** Nothing listens on its port: calls are refused, and so is a fresh connection. */
  gone = false;
  /** Until this virtual time, calls report a refused connection though the replica listens (a channel repeating an old error). */
  repeatsOldRefusalUntil = 0;
  /** Its store failed and it revoked its readiness: calls fail with "store unavailable". */
  storeUnavailable = false;
  /** Its lists are at their length limit: appends are refused for good. */
  listsFull = false;
  /** A not-ready replica refuses reads that must see every acknowledged write. */
  ready = true;
  /** The newest view epoch it knows; calls with an older nonzero epoch are refused. */
  epoch = 0n;
  clock = 0n;
  readonly strings = new Map<string, string>();
  readonly lists = new Map<string, string[]>();
  /** `key\0value` -> clock of a remove of that value this replica applied (appends below it are superseded). */
  readonly #removes = new Map<string, bigint>();

  constructor(readonly address: string) {}

  /** A remove of `value` stamped at `clock` (by another writer) reached this replica. */
  tookRemove(key: string, value: string, clock: bigint): void {
    this.#removes.set(`${key}\0${value}`, clock);
    this.lists.set(
      key,
      (this.lists.get(key) ?? []).filter((v) => v !== value),
    );
    if (clock + 1n > this.clock) this.clock = clock + 1n;
  }

  run(operation: Operation): OperationResult__Output {
    const request = Object.values(operation)[0] as { target?: { epoch?: string; requireReady?: boolean } };
    const callerEpoch = wireToBigint(request.target?.epoch);
    if (callerEpoch !== 0n && callerEpoch < this.epoch) throw new StaleEpochError(callerEpoch, this.epoch);
    if (request.target?.requireReady && !this.ready) throw new NotReadyError(`${this.address} is filling`);
    if (operation.get) {
      const value = this.strings.get(operation.get.key ?? "");
      return { result: "get", get: { found: value !== undefined, value: value ?? "", stamp: null } };
    }
    if (operation.listGet) {
      return { result: "listGet", listGet: { values: this.lists.get(operation.listGet.key ?? "") ?? [] } };
    }
    if (operation.clock) {
      const atLeast = fromWire(operation.clock.atLeast);
      if (operation.clock.raiseOnly) this.#checkCaughtUp(atLeast);
      const ticked = operation.clock.raiseOnly ? this.clock : this.clock + 1n;
      this.clock = ticked > atLeast ? ticked : atLeast;
      return { result: "clock", clock: { clock: this.clock.toString() } };
    }
    if (operation.set)
      return this.#write(operation.set, () => this.strings.set(operation.set!.key!, operation.set!.value!));
    if (operation.listAppend) return this.#append(operation.listAppend);
    throw new Error(`the fake replica does not model ${Object.keys(operation).join(", ")}`);
  }

  /** As a backend does (persistent-clock.ts): a clock a writer drew elsewhere may be at most the jump window ahead. */
  #checkCaughtUp(clock: bigint): void {
    if (clock > this.clock + MAX_CLOCK_JUMP) {
      throw new ClockBehindError(
        `clock ${clock} is more than 2^32 above ${this.address}'s clock ${this.clock}`,
      );
    }
  }

  #append(request: SetRequest): OperationResult__Output {
    this.#checkCaughtUp(fromWire(request.stamp?.clock));
    if (this.listsFull) throw new ListFullError(`list ${JSON.stringify(request.key)} on ${this.address}`);
    const removedAt = this.#removes.get(`${request.key}\0${request.value}`);
    if (removedAt !== undefined && fromWire(request.stamp?.clock) < removedAt) {
      return this.#reply(true);
    }
    return this.#write(request, () => {
      this.lists.set(request.key!, [...(this.lists.get(request.key!) ?? []), request.value!]);
    });
  }

  #write(request: SetRequest, store: () => void): OperationResult__Output {
    this.#checkCaughtUp(fromWire(request.stamp?.clock));
    store();
    // A backend's clock is always past every stamp it stores.
    const stamped = fromWire(request.stamp?.clock) + 1n;
    if (stamped > this.clock) this.clock = stamped;
    return this.#reply(false);
  }

  #reply(superseded: boolean): OperationResult__Output {
    return {
      result: "write",
      write: {
        stamp: null,
        removed: "0",
        ready: this.ready,
        superseded,
        clock: this.clock.toString(),
      },
    };
  }
}

export interface RecordedCall {
  address: string;
  /** The operation's name: get, set, clock, ... */
  operation: string;
  epoch: bigint;
  /** Virtual time the call was made. */
  at: number;
}

export class FakeTransport implements ReplicaTransport {
  readonly #replicas = new Map<string, FakeReplica>();
  readonly calls: RecordedCall[] = [];

  constructor(
    addresses: readonly string[],
    private readonly time: VirtualTime,
  ) {
    for (const address of addresses) this.#replicas.set(address, new FakeReplica(address));
  }

  replica(address: string): FakeReplica {
    const replica = this.#replicas.get(address);
    if (!replica) throw new Error(`no fake replica ${address}`);
    return replica;
  }

  /** The calls made to one replica, by operation name. */
  callsTo(address: string, operation?: string): RecordedCall[] {
    return this.calls.filter((c) => c.address === address && (!operation || c.operation === operation));
  }

  async execute(address: string, operation: Operation): Promise<OperationResult__Output> {
    const replica = this.replica(address);
    const name = Object.keys(operation)[0]!;
    const target = (Object.values(operation)[0] as { target?: { epoch?: string } }).target;
    this.calls.push({ address, operation: name, epoch: wireToBigint(target?.epoch), at: this.time.now() });
    if (replica.gone || this.time.now() < replica.repeatsOldRefusalUntil) {
      throw new ConnectionRefusedError(
        `backend ${address} unavailable: No connection established. Last error: connect ECONNREFUSED ${address}`,
      );
    }
    if (replica.storeUnavailable) throw new StoreUnavailableError("redis is reconnecting");
    const wait = replica.pausedUntil - this.time.now();
    if (wait >= BACKEND_CALL_TIMEOUT_MS) {
      await this.time.sleep(BACKEND_CALL_TIMEOUT_MS);
      throw new TimeoutError(`backend ${address} did not answer within ${BACKEND_CALL_TIMEOUT_MS} ms`);
    }
    if (wait > 0) await this.time.sleep(wait);
    return replica.run(operation);
  }

  async refusesConnections(address: string): Promise<boolean> {
    return this.replica(address).gone;
  }
}
