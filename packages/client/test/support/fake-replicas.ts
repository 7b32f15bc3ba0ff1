// In-memory replicas on one fake network, each of which can be made to hang
// (paused), refuse connections (gone), fail its store, answer not ready, fence
// calls by a newer epoch, refuse stamps far above its clock, or answer appends
// superseded (a remove of the value got there first). A `write` runs the real
// coordinator (write-coordinator.ts) on the replica it is sent to, reaching
// the others over this network as a backend's links do. Calls fail as
// BackendChannel fails them: with the error classes of @binring/core, and
// with TimeoutError when a replica does not answer within the caller's
// per-call deadline.
import {
  ClockBehindError,
  ConnectionRefusedError,
  compareStamps,
  decodeBatchRequest,
  encodeBatchRequest,
  ListFullError,
  MAX_CLOCK_JUMP,
  NotReadyError,
  type Operation,
  type OperationResult__Output,
  type SetRequest,
  StaleEpochError,
  type Stamp,
  StoreUnavailableError,
  SupersededAttemptError,
  TimeoutError,
  UnavailableError,
  wireToBigint,
} from "@binring/core";
import type { ReplicaTransport } from "../../src/replica-transport.js";
import { coordinateWrite } from "../../src/write-coordinator.js";
import { parseWriteRequest } from "../../src/write-request.js";
import type { VirtualTime } from "./virtual-time.js";

/** What a BackendChannel's calls wait for an answer (BinClient's backendCallTimeoutMs default). */
export const BACKEND_CALL_TIMEOUT_MS = 2000;
/** What a coordinator's calls to the other replicas wait (backend peer-links.ts PEER_CALL_TIMEOUT_MS). */
export const PEER_CALL_TIMEOUT_MS = 1000;

/** A uint64 as the request side of the wire types carries it. */
function fromWire(value: string | number | { toString(): string } | null | undefined): bigint {
  return BigInt(String(value ?? 0));
}

function stampOf(request: SetRequest): Stamp {
  const stamp = request.stamp!;
  return { clock: fromWire(stamp.clock), writer: stamp.writer!, seq: stamp.seq! };
}

function writeName(stamp: Stamp): string {
  return `${stamp.writer}:${stamp.seq}`;
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
  /** As a write's coordinator, its process dies once it has forwarded this many calls: the client's call fails, of unknown outcome. */
  diesAfterForwards: number | undefined;
  /** Runs when it dies as a coordinator (diesAfterForwards): what happens elsewhere meanwhile. */
  onDeath: (() => void) | undefined;
  /** As a write's coordinator, it finishes the write but the client never gets the answer (it times out). */
  losesWriteReplies = false;
  /** A not-ready replica refuses reads that must see every acknowledged write. */
  ready = true;
  /** The newest view epoch it knows; calls with an older nonzero epoch are refused. */
  epoch = 0n;
  clock = 0n;
  readonly strings = new Map<string, string>();
  readonly lists = new Map<string, string[]>();
  /** The stamp each string key's value came with (a value set by a test directly has none: any stamp beats it). */
  readonly #stringStamps = new Map<string, Stamp>();
  /** Entries applied here, `kind key stamp`: applying one again changes nothing. */
  readonly #applied = new Set<string>();
  /** `key\0value` -> clock of a remove of that value this replica applied (appends below it are superseded). */
  readonly #removes = new Map<string, bigint>();
  /** The largest stamp applied here per write (writer:seq), as a backend records it for claims. */
  readonly records = new Map<string, Stamp>();
  /** Claimed writes: the claim, and the stamp it settled on. */
  readonly #fences = new Map<string, { claim: string; settled?: Stamp }>();
  /** Sets taken but withheld from readers (`key clock writer:seq` -> the replicas after this one), until released. */
  readonly withheld = new Map<string, readonly string[]>();

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
    if (operation.claim) {
      const write = `${operation.claim.writer}:${operation.claim.seq}`;
      this.#fences.set(write, { claim: operation.claim.claim! });
      const held = this.records.get(write);
      return { result: "claim", claim: { stamp: held ? { ...held, clock: held.clock.toString() } : null } };
    }
    if (operation.release) {
      const { key, stamp } = operation.release;
      this.withheld.delete(`${key} ${fromWire(stamp?.clock)} ${stamp?.writer}:${stamp?.seq}`);
      return { result: "release", release: {} };
    }
    if (operation.set) {
      const set = operation.set;
      const result = this.#write("set", set, (stamp) => {
        const current = this.#stringStamps.get(set.key!);
        if (current && compareStamps(current, stamp) >= 0) return;
        this.#stringStamps.set(set.key!, stamp);
        this.strings.set(set.key!, set.value!);
      });
      const later = set.laterReplicas ?? [];
      if (later.length > 0)
        this.withheld.set(`${set.key} ${stampOf(set).clock} ${writeName(stampOf(set))}`, later);
      return result;
    }
    if (operation.listAppend) return this.#append(operation.listAppend);
    throw new Error(`the fake replica does not model ${Object.keys(operation).join(", ")}`);
  }

  /** The append was applied here under `stamp` (and may have been removed since): backend holdsAppend. */
  holdsAppend(key: string, _value: string, stamp: Stamp): boolean {
    return this.#applied.has(`append ${key} ${stamp.clock} ${writeName(stamp)}`);
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
    return this.#write("append", request, () => {
      this.lists.set(request.key!, [...(this.lists.get(request.key!) ?? []), request.value!]);
    });
  }

  /** Applies a stamped entry once (as backend-node.ts: fenced by claims, recorded for them). */
  #write(kind: string, request: SetRequest, store: (stamp: Stamp) => void): OperationResult__Output {
    const stamp = stampOf(request);
    this.#checkCaughtUp(stamp.clock);
    const write = writeName(stamp);
    const fence = this.#fences.get(write);
    if (fence && request.claim !== fence.claim && compareStamps(stamp, fence.settled ?? stamp) !== 0) {
      throw new SupersededAttemptError(`write ${write} was claimed by ${fence.claim}`);
    }
    if (fence && request.claim === fence.claim) fence.settled = stamp;
    if (fence && !fence.settled)
      throw new SupersededAttemptError(`write ${write} was claimed by ${fence.claim}`);
    const applied = `${kind} ${request.key} ${stamp.clock} ${write}`;
    if (!this.#applied.has(applied)) {
      this.#applied.add(applied);
      store(stamp);
    }
    const held = this.records.get(write);
    if (!held || compareStamps(stamp, held) > 0) this.records.set(write, stamp);
    // A backend's clock is always past every stamp it stores.
    if (stamp.clock + 1n > this.clock) this.clock = stamp.clock + 1n;
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
        restamps: 0,
      },
    };
  }
}

export interface RecordedCall {
  address: string;
  /** The operation's name: get, set, clock, write, claim, ... */
  operation: string;
  epoch: bigint;
  /** Virtual time the call was made. */
  at: number;
  /** Who called: "client", or the address of the coordinator that forwarded it (a call to itself included). */
  from: string;
  /** A set's later_replicas: the replicas after this one it withholds the entry for. */
  later: readonly string[];
}

/** The replicas, and every call made to them by the client and by coordinators. */
export class FakeNetwork {
  readonly #replicas = new Map<string, FakeReplica>();
  readonly calls: RecordedCall[] = [];
  #claims = 0;

  constructor(
    addresses: readonly string[],
    readonly time: VirtualTime,
  ) {
    for (const address of addresses) this.#replicas.set(address, new FakeReplica(address));
  }

  replica(address: string): FakeReplica {
    const replica = this.#replicas.get(address);
    if (!replica) throw new Error(`no fake replica ${address}`);
    return replica;
  }

  record(address: string, operation: Operation, from: string): void {
    const name = Object.keys(operation)[0]!;
    const request = Object.values(operation)[0] as {
      target?: { epoch?: string };
      entry?: { target?: { epoch?: string } };
      laterReplicas?: string[];
    };
    const epoch = wireToBigint((request.target ?? request.entry?.target)?.epoch);
    const later = request.laterReplicas ?? [];
    this.calls.push({ address, operation: name, epoch, at: this.time.now(), from, later });
  }

  /** The coordinator's work for a `write` sent to `address` (backend write-coordination.ts on fakes). */
  coordinate(address: string, operation: Operation): Promise<OperationResult__Output> {
    const replica = this.replica(address);
    const dead = () => new UnavailableError(`backend ${address} unavailable: the stream was dropped`);
    let die: (error: Error) => void = () => undefined;
    const death = new Promise<never>((_, reject) => {
      die = reject;
    });
    const local = async (op: Operation) => {
      if (replica.gone) throw dead();
      this.record(address, op, address);
      if (replica.storeUnavailable) throw new StoreUnavailableError("redis is reconnecting");
      return replica.run(op);
    };
    const links = new FakeTransport(this, PEER_CALL_TIMEOUT_MS, address);
    let forwards = 0;
    const peers: ReplicaTransport = {
      execute: async (to, op, timeoutMs) => {
        if (replica.gone) throw dead();
        const result = await links.execute(to, op, timeoutMs);
        if (++forwards === replica.diesAfterForwards) {
          replica.gone = true;
          replica.onDeath?.();
          die(dead());
        }
        return result;
      },
      refusesConnections: (to) => links.refusesConnections(to),
    };
    // Through the Pipe codec, as a backend receives it: every field present.
    const [received] = decodeBatchRequest(encodeBatchRequest({ operations: [operation] })).operations;
    const write = parseWriteRequest(received!.write!, this.time.now());
    const coordinated = coordinateWrite(
      {
        local,
        holdsAppend: async (_bin, key, value, stamp) => replica.holdsAppend(key, value, stamp),
        peers,
        time: this.time,
        newClaimId: () => `claim-${++this.#claims}`,
        notify: (to, op) => {
          this.record(to, op, address);
          const peer = this.replica(to);
          if (!peer.gone && peer.pausedUntil <= this.time.now()) peer.run(op);
        },
      },
      write,
    ).then((reply): Promise<OperationResult__Output> | OperationResult__Output =>
      // An answer lost on the way: the caller times out.
      replica.losesWriteReplies ? new Promise<never>(() => undefined) : { result: "write", write: reply },
    );
    return Promise.race([coordinated, death]);
  }
}

/** One caller's view of the network: its calls time out after `callTimeoutMs`. */
export class FakeTransport implements ReplicaTransport {
  constructor(
    readonly network: FakeNetwork,
    private readonly callTimeoutMs = BACKEND_CALL_TIMEOUT_MS,
    private readonly from = "client",
  ) {}

  get calls(): RecordedCall[] {
    return this.network.calls;
  }

  replica(address: string): FakeReplica {
    return this.network.replica(address);
  }

  /** The calls made to one replica, by operation name. */
  callsTo(address: string, operation?: string): RecordedCall[] {
    return this.calls.filter((c) => c.address === address && (!operation || c.operation === operation));
  }

  async execute(
    address: string,
    operation: Operation,
    timeoutMs = this.callTimeoutMs,
  ): Promise<OperationResult__Output> {
    const { network } = this;
    const replica = network.replica(address);
    network.record(address, operation, this.from);
    const { time } = network;
    if (replica.gone || time.now() < replica.repeatsOldRefusalUntil) {
      throw new ConnectionRefusedError(
        `backend ${address} unavailable: No connection established. Last error: connect ECONNREFUSED ${address}`,
      );
    }
    if (replica.storeUnavailable && !operation.write)
      throw new StoreUnavailableError("redis is reconnecting");
    const wait = replica.pausedUntil - time.now();
    if (wait >= timeoutMs) {
      await time.sleep(timeoutMs);
      throw new TimeoutError(`backend ${address} did not answer within ${timeoutMs} ms`);
    }
    if (wait > 0) await time.sleep(wait);
    if (!operation.write) return replica.run(operation);
    // The coordinator keeps working past the caller's deadline, as a backend does.
    const timer = time.timer(timeoutMs - Math.max(wait, 0));
    const timedOut = timer.done.then(() => {
      throw new TimeoutError(`backend ${address} did not answer within ${timeoutMs} ms`);
    });
    const coordinated = network.coordinate(address, operation);
    coordinated.then(timer.cancel, timer.cancel);
    return Promise.race([coordinated, timedOut]);
  }

  async refusesConnections(address: string): Promise<boolean> {
    return this.network.replica(address).gone;
  }
}
