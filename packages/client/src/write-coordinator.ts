// The coordinator of one replicated write. A client sends the write once, to
// the first of the bin's replicas that serves reads; that backend runs this:
// it stamps the entry with its own clock, applies it to every replica the
// client listed, last backup first and itself in its place, and answers once
// all of them have it (docs/ARCHITECTURE.md, "Write path"). It lives beside
// the client's half of the protocol (write-path.ts) because the two are one
// protocol, tested together on fake replicas; the backend wires it to its
// store and to Pipe streams to the other replicas.
//
// Whatever a reader can see on a replica is therefore already on every
// replica after it in placement order (HAZARDS.md 1), and the stamp is above
// every acknowledged entry of the bin: the coordinator serves reads, so it
// holds them all, and its clock is past their stamps (HAZARDS.md 2).
//
// The coordinator keeps nothing about the write once it answers. When an
// attempt fails part way, its error carries the replica that failed and the
// stamp the write had (WriteProgress): the client, which holds the cluster
// view, decides what that replica's failure means and sends the next attempt
// with that stamp. When an attempt's outcome is unknown to the client (its
// coordinator died, or did not answer), the next coordinator first claims the
// write on every replica (HAZARDS.md 20): it keeps any stamp one of them
// holds, and fences the write so the lost attempt's entries land nowhere.
import {
  BinringError,
  ClockBehindError,
  compareStamps,
  errorDetails,
  errorFromStatus,
  MAX_CLOCK_JUMP,
  type Operation,
  type OperationResult__Output,
  OutcomeUnknownError,
  type Stamp,
  StatusCode,
  stampFromWire,
  stampToWire,
  type Target,
  TimeoutError,
  type WriteReply__Output,
  wireToBigint,
} from "@binring/core";
import { classifyFailure } from "./failure-kind.js";
import { mustRestamp, reportedReply } from "./remove-count.js";
import type { ReplicaTransport } from "./replica-transport.js";
import type { WallTime } from "./wall-time.js";
import { type CoordinatedWrite, checkReplicas } from "./write-request.js";

/** What the coordinator needs from the backend it runs on. */
export interface CoordinatorHost {
  /** Runs one operation on this backend itself. */
  local(operation: Operation): Promise<OperationResult__Output>;
  /**
   * Whether this backend holds the append (bin, key, value) under `stamp`, or
   * held it until a remove deleted it (and so counted it): what decides
   * whether an append a remove overtook elsewhere is stamped again.
   */
  holdsAppend(bin: string, key: string, value: string, stamp: Stamp): Promise<boolean>;
  /** The other replicas. */
  peers: ReplicaTransport;
  time: WallTime;
  /** A claim id no other claim of this write uses. */
  newClaimId(): string;
}

/** Stamps the write (or keeps its stamp), applies it to every replica listed, and reports as write-path.ts expects. */
export async function coordinateWrite(
  host: CoordinatorHost,
  write: CoordinatedWrite,
): Promise<WriteReply__Output> {
  checkReplicas(write);
  const call = (i: number, operation: Operation) =>
    i === write.coordinator
      ? host.local(operation)
      : host.peers.execute(write.replicas[i]!, operation, forwardTimeoutMs(host, write));
  // Fenced by the caller's view, and refused unless this backend serves reads: it is what the stamp rests on.
  const clock = await clockAtLeast(host, write, write.atLeast, write.requireReady);
  let stamp = write.stamp;
  let claim = write.claim;
  if (write.retry) {
    claim = host.newClaimId();
    stamp = await claimEverywhere(write, call, claim, stamp);
  }
  stamp ??= { clock, writer: write.writer, seq: write.seq };
  return applyEverywhere(host, write, call, stamp, claim);
}

type Call = (replica: number, operation: Operation) => Promise<OperationResult__Output>;

/** The least a forward waits for its replica (a client's default attempt leaves room for two of these). */
export const FORWARD_TIMEOUT_FLOOR_MS = 1000;

/**
 * How long a forward waits: half of what is left of the write's time, and at
 * least the floor. A replica slower than the floor — busy applying megabytes,
 * say — is waited for as long as the caller allows, rather than given up on
 * and sent the entry again, which only adds to what it is busy with; half, so
 * the hop after it still has time and a timeout names the replica that was slow.
 */
function forwardTimeoutMs(host: CoordinatorHost, write: CoordinatedWrite): number {
  return Math.max(FORWARD_TIMEOUT_FLOOR_MS, Math.floor((write.deadline - host.time.now()) / 2));
}

function target(write: CoordinatedWrite, requireReady: boolean): Target {
  return { bin: write.bin, epoch: write.epoch.toString(), requireReady };
}

/** This backend's clock raised to at least `atLeast`: the next stamp it would give. */
async function clockAtLeast(
  host: CoordinatorHost,
  write: CoordinatedWrite,
  atLeast: bigint,
  requireReady: boolean,
): Promise<bigint> {
  const reply = await host.local({
    clock: { target: target(write, requireReady), atLeast: atLeast.toString(), raiseOnly: true },
  });
  return wireToBigint(reply.clock?.clock);
}

/**
 * Claims the write on every replica listed, in parallel: each answers the
 * largest stamp it holds for it and from then on takes its entries only under
 * this claim. Returns the largest of those and `known` (the stamp the caller
 * learned last), or undefined when no replica holds one: the write was
 * applied nowhere, or only where no reader will see it before it is emptied
 * (a replica the caller left out is gone, and comes back through a fill, which
 * empties it first). A replica's failure names that replica, so the caller
 * judges it, not this coordinator, by it (a store that failed a claim on a
 * backup must not make the caller skip a live coordinator).
 */
async function claimEverywhere(
  write: CoordinatedWrite,
  call: Call,
  claim: string,
  known: Stamp | undefined,
): Promise<Stamp | undefined> {
  const operation = { claim: { target: target(write, false), writer: write.writer, seq: write.seq, claim } };
  const held = await Promise.all(
    write.replicas.map((address, i) =>
      call(i, operation).then(
        (reply) => (reply.claim?.stamp ? stampFromWire(reply.claim.stamp) : undefined),
        (error: unknown) => {
          throw failedAt(error, address, undefined, claim, 0);
        },
      ),
    ),
  );
  let largest = known;
  for (const stamp of held) {
    if (stamp && (!largest || compareStamps(stamp, largest) > 0)) largest = stamp;
  }
  return largest;
}

/**
 * Applies the entry to every replica, last backup first. An append that a
 * remove of its value overtook on a replica before the counting one (the
 * first ready one in placement order) would never show: it is stamped again
 * above the remove and applied anew everywhere (remove-count.ts).
 */
async function applyEverywhere(
  host: CoordinatorHost,
  write: CoordinatedWrite,
  call: Call,
  first: Stamp,
  claim: string | undefined,
): Promise<WriteReply__Output> {
  let stamp = first;
  const applied = new Map<string, WriteReply__Output>();
  let restamps = 0;
  const order = write.replicas.map((_, i) => i).reverse();
  for (;;) {
    let superseded = false;
    for (const i of order) {
      const address = write.replicas[i]!;
      if (applied.has(address)) continue;
      let reply: WriteReply__Output;
      try {
        reply = (await applyCatchingUp(host, write, call, i, stamp, claim)).write!;
      } catch (error) {
        throw failedAt(error, address, stamp, claim, applied.size);
      }
      applied.set(address, reply);
      if (!reply.superseded) continue;
      const self = write.replicas[write.coordinator]!;
      let again: boolean;
      try {
        again = await mustStampAgain(host, write, applied, stamp);
      } catch (error) {
        throw failedAt(error, self, stamp, claim, applied.size);
      }
      if (again) {
        superseded = true;
        const above = wireToBigint(reply.clock);
        try {
          if (host.time.now() >= write.deadline)
            throw new TimeoutError(`a remove kept overtaking the append for ${restamps} restamps`);
          stamp = {
            clock: await clockAtLeast(host, write, above, false),
            writer: write.writer,
            seq: write.seq,
          };
        } catch (error) {
          throw failedAt(error, self, stamp, claim, applied.size);
        }
        restamps++;
        applied.clear();
        break;
      }
    }
    if (!superseded) return { ...reportedReply(write.replicas, applied)!, restamps };
  }
}

/**
 * An append a replica answered `superseded`: stamp it again unless the
 * counting replica (remove-count.ts) already took it under this stamp. This
 * attempt may not have reached it yet (it is this coordinator, which applies
 * after the backups) while an earlier attempt did — under another
 * coordinator, before a death changed placement — and a remove then counted
 * it there: restamping would make an append show that a remove reported
 * removed (a soak saw it). So this coordinator, the counting replica, looks in
 * its own store.
 */
async function mustStampAgain(
  host: CoordinatorHost,
  write: CoordinatedWrite,
  applied: ReadonlyMap<string, WriteReply__Output>,
  stamp: Stamp,
): Promise<boolean> {
  if (!mustRestamp(write.replicas, applied)) return false;
  return !(await host.holdsAppend(write.bin, write.key, write.value, stamp));
}

/**
 * Applies the entry on one replica. A replica whose clock is more than the
 * jump window (core/value-bounds.ts) below the stamp refuses it as "clock
 * behind": it came back on an empty store and keeper clock sync has not
 * reached it yet. The coordinator raises that clock itself, one window at a
 * time, and applies again at once: a write that stopped here would stay on the
 * replicas after this one only, where no fill or repair of a live replica
 * would ever bring it (HAZARDS.md 18).
 */
async function applyCatchingUp(
  host: CoordinatorHost,
  write: CoordinatedWrite,
  call: Call,
  replica: number,
  stamp: Stamp,
  claim: string | undefined,
): Promise<OperationResult__Output> {
  const operation: Operation = {
    [write.kind]: {
      target: target(write, false),
      key: write.key,
      value: write.value,
      stamp: stampToWire(stamp),
      claim,
    },
  };
  try {
    return await call(replica, operation);
  } catch (error) {
    if (!(error instanceof ClockBehindError)) throw error;
    let atLeast = 0n;
    for (;;) {
      const reply = await call(replica, {
        clock: { target: target(write, false), atLeast: atLeast.toString(), raiseOnly: true },
      });
      const reached = wireToBigint(reply.clock?.clock);
      if (stamp.clock <= reached + MAX_CLOCK_JUMP) break;
      if (host.time.now() >= write.deadline) throw error;
      atLeast = reached + MAX_CLOCK_JUMP;
    }
    return call(replica, operation);
  }
}

/**
 * The error an attempt ends with, naming where it stood: a new instance, since
 * a channel fails every operation of a batch with one. A replica that refused
 * the write for good after others took it leaves it of unknown outcome: it
 * may still take effect, so the caller must not be told it failed.
 */
function failedAt(
  error: unknown,
  replica: string,
  stamp: Stamp | undefined,
  claim: string | undefined,
  appliedOn: number,
): BinringError {
  const progress = { replica, stamp, claim };
  if (!(error instanceof BinringError))
    return errorFromStatus(
      StatusCode.UNAVAILABLE,
      `coordinating the write failed: ${(error as Error).message}`,
      { progress },
      { cause: error },
    );
  if (appliedOn > 0 && classifyFailure(error) === "fatal" && !(error instanceof OutcomeUnknownError)) {
    const unknown = new OutcomeUnknownError(
      `write was taken by ${appliedOn} replica(s), then refused by ${replica}; it may or may not take effect: ${error.message}`,
      { cause: error },
    );
    unknown.progress = progress;
    return unknown;
  }
  return errorFromStatus(error.code, error.message, { ...errorDetails(error), progress }, { cause: error });
}
