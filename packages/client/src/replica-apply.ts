// One replica's part of a coordinated write, as both of the coordinator's
// paths (write-coordinator.ts: a list entry replica by replica; write-fan-out.ts:
// a set on every replica at once) call it: the operation that carries the
// entry there, how long a forward waits, a replica whose clock is behind the
// stamp, and the error an attempt ends with.
import {
  BinringError,
  ClockBehindError,
  errorDetails,
  errorFromStatus,
  MAX_CLOCK_JUMP,
  type Operation,
  type OperationResult__Output,
  OutcomeUnknownError,
  type Stamp,
  StatusCode,
  stampToWire,
  type Target,
  wireToBigint,
} from "@binring/core";
import { classifyFailure } from "./failure-kind.js";
import type { WallTime } from "./wall-time.js";
import type { CoordinatedWrite } from "./write-request.js";

/** Runs an operation on the write's replica `i` (the coordinator itself, or over a link). */
export type Call = (replica: number, operation: Operation) => Promise<OperationResult__Output>;

/** The least a forward waits for its replica (a client's default attempt leaves room for two of these). */
export const FORWARD_TIMEOUT_FLOOR_MS = 1000;

/**
 * How long a forward waits: half of what is left of the write's time, and at
 * least the floor. A replica slower than the floor — busy applying megabytes,
 * say — is waited for as long as the caller allows, rather than given up on
 * and sent the entry again, which only adds to what it is busy with; half, so
 * the hop after it still has time and a timeout names the replica that was slow.
 */
export function forwardTimeoutMs(time: WallTime, deadline: number): number {
  return Math.max(FORWARD_TIMEOUT_FLOOR_MS, Math.floor((deadline - time.now()) / 2));
}

export function target(write: Pick<CoordinatedWrite, "bin" | "epoch">, requireReady: boolean): Target {
  return { bin: write.bin, epoch: write.epoch.toString(), requireReady };
}

/** The operation that claims the write (writer, seq) on one replica under `claim` (HAZARDS.md 20). */
export function claimOperation(
  write: Pick<CoordinatedWrite, "bin" | "epoch">,
  writer: string,
  seq: number,
  claim: string,
): Operation {
  return { claim: { target: target(write, false), writer, seq, claim } };
}

/** The entry as one replica takes it; a set names the replicas after that one, which it withholds it for. */
export function entryOperation(
  write: Pick<CoordinatedWrite, "kind" | "bin" | "epoch" | "key" | "value">,
  stamp: Stamp,
  claim: string | undefined,
  laterReplicas: readonly string[] = [],
): Operation {
  return {
    [write.kind]: {
      target: target(write, false),
      key: write.key,
      value: write.value,
      stamp: stampToWire(stamp),
      claim,
      laterReplicas: laterReplicas.length > 0 ? [...laterReplicas] : undefined,
    },
  };
}

/**
 * Applies the entry on one replica. A replica whose clock is more than the
 * jump window (core/value-bounds.ts) below the stamp refuses it as "clock
 * behind": it came back on an empty store and keeper clock sync has not
 * reached it yet. The coordinator raises that clock itself, one window at a
 * time, and applies again at once: a write that stopped here would stay on
 * the replicas that took it, where no fill or repair of a live replica would
 * ever bring it to this one (HAZARDS.md 18).
 */
export async function applyCatchingUp(
  time: WallTime,
  write: Pick<CoordinatedWrite, "bin" | "epoch" | "deadline">,
  call: Call,
  replica: number,
  operation: Operation,
  stamp: Stamp,
): Promise<OperationResult__Output> {
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
      if (time.now() >= write.deadline) throw error;
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
export function failedAt(
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
