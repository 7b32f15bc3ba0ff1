// Write: stamp the entry with the clock of the replica a read would use (the
// first ready one: it holds every acknowledged entry of the bin, so its clock
// is past all their stamps), then apply it to the replicas from the last
// backup to the primary, one after another. Whatever a reader can see on the
// first replica is therefore already on the others (HAZARDS.md 1). The write
// is acknowledged once every live replica has it (docs/ARCHITECTURE.md, "Write path").
import {
  bigintToWire,
  ClockBehindError,
  checkTransportable,
  MAX_CLOCK_JUMP,
  type Operation,
  type OperationResult__Output,
  type Stamp,
  stampToWire,
  type WriteReply__Output,
  wireToBigint,
} from "@binring/core";
import type { ClientSession } from "./client-session.js";
import { classifyFailure } from "./failure-kind.js";
import { gaveUpError, noReplicaError, refusedWriteError } from "./operation-errors.js";
import { readFromReplicas } from "./read-path.js";
import { mustRestamp, reportedReply } from "./remove-count.js";
import { writeOrder } from "./sabotage.js";
import { retryPauseMs } from "./wall-time.js";

export type WriteKind = "set" | "listAppend" | "listRemove";

/** The write's stamp was superseded on a replica: apply it again under a new stamp, at once. */
class RestampError extends Error {}

/**
 * A stamp above every acknowledged entry of the bin: the clock of the first
 * ready replica, which holds all of them (an acknowledged entry is on every
 * replica that was live, and a replica only becomes ready once filled), and
 * above anything this client has seen. Read like any read, without ticking.
 */
async function stampAbove(
  session: ClientSession,
  bin: string,
  point: number,
  deadline: number,
): Promise<Stamp> {
  const atLeast = bigintToWire(session.clockSeen);
  const { clock } = await readFromReplicas(
    session,
    bin,
    point,
    (target) => ({ clock: { target, atLeast, raiseOnly: true } }),
    deadline,
  );
  return { clock: wireToBigint(clock?.clock), writer: session.writer, seq: session.nextSeq() };
}

/** Stamps an entry and applies it to every live replica, last backup first. */
export async function writeToReplicas(
  session: ClientSession,
  bin: string,
  point: number,
  kind: WriteKind,
  key: string,
  value: string,
): Promise<WriteReply__Output> {
  checkTransportable(key, value);
  const deadline = session.time.now() + session.callTimeoutMs;
  let stamp = await stampAbove(session, bin, point, deadline);
  const entry = { target: session.target(bin, false), key, value, stamp: stampToWire(stamp) };
  const applied = new Map<string, WriteReply__Output>();
  let lastError: unknown;
  for (let attempt = 0; ; attempt++) {
    const { replicas } = session.placement(point);
    try {
      if (replicas.length === 0) throw lastError ?? noReplicaError(bin);
      for (const address of writeOrder(replicas, session.sabotage)) {
        if (applied.has(address)) continue;
        entry.target = session.target(bin, false);
        const reply = (await applyCatchingUp(session, address, bin, { [kind]: entry }, stamp.clock, deadline))
          .write!;
        applied.set(address, reply);
        if (reply.superseded && mustRestamp(replicas, applied)) {
          // A remove of this value, stamped above this append, got here first and did not count
          // it: the append would never show. Start over, stamped above the remove; the copies
          // applied so far are removed by it wherever it lands (remove-count.ts).
          session.observeClock(wireToBigint(reply.clock));
          session.observer.restamp();
          stamp = await stampAbove(session, bin, point, deadline);
          entry.stamp = stampToWire(stamp);
          applied.clear();
          throw new RestampError();
        }
      }
      session.observeClock(stamp.clock);
      return reportedReply(replicas, applied)!;
    } catch (error) {
      if (error instanceof RestampError) {
        // Replicas that kept answering superseded must not keep the write past its deadline.
        if (session.time.now() >= deadline) throw gaveUpError("write", bin, session.callTimeoutMs, error);
        continue;
      }
      if (classifyFailure(error) === "fatal") throw refusedWriteError(bin, error, applied.size);
      lastError = error;
    }
    if (session.time.now() >= deadline) throw gaveUpError("write", bin, session.callTimeoutMs, lastError);
    await Promise.all([session.time.sleep(retryPauseMs(attempt)), session.view.refresh()]);
  }
}

/**
 * Applies the entry on one replica. A replica whose clock is more than the
 * jump window (core/value-bounds.ts) below the stamp refuses it as "clock
 * behind": it came back on an empty store and keeper clock sync has not
 * reached it yet. The writer raises that clock itself, one window at a time,
 * and applies again at once: a write that stopped here would stay on the
 * replicas after this one only, where no fill or repair of a live replica
 * would ever bring it (HAZARDS.md 18).
 */
async function applyCatchingUp(
  session: ClientSession,
  address: string,
  bin: string,
  operation: Operation,
  stampClock: bigint,
  deadline: number,
): Promise<OperationResult__Output> {
  try {
    return await applyOn(session, address, operation);
  } catch (error) {
    if (!(error instanceof ClockBehindError)) throw error;
    await raiseClockBelow(session, address, bin, stampClock, deadline, error);
    return applyOn(session, address, operation);
  }
}

/** Raises a replica's clock until `clock` is within its jump window; gives up with `behind` at the deadline. */
async function raiseClockBelow(
  session: ClientSession,
  address: string,
  bin: string,
  clock: bigint,
  deadline: number,
  behind: ClockBehindError,
): Promise<void> {
  let atLeast = 0n;
  for (;;) {
    const reply = await applyOn(session, address, {
      clock: { target: session.target(bin, false), atLeast: bigintToWire(atLeast), raiseOnly: true },
    });
    const reached = wireToBigint(reply.clock?.clock);
    if (clock <= reached + MAX_CLOCK_JUMP) return;
    if (session.time.now() >= deadline) throw behind;
    atLeast = reached + MAX_CLOCK_JUMP;
  }
}

/** One call to one replica; a failure is noted and rethrown. */
async function applyOn(
  session: ClientSession,
  address: string,
  operation: Operation,
): Promise<OperationResult__Output> {
  try {
    return await session.transport.execute(address, operation);
  } catch (error) {
    await session.noteFailure(address, error);
    throw error;
  }
}
