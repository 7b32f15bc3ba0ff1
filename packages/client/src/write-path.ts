// Write: one message per attempt, to the backend that coordinates it — the
// first of the bin's replicas that serves reads, found as a read finds its
// replica. The coordinator stamps the entry and applies it to every replica,
// last backup first (write-coordinator.ts); this side holds the cluster view,
// so it decides what a failed replica means and sends the next attempt.
// The write is acknowledged once every live replica has it
// (docs/ARCHITECTURE.md, "Write path").
import {
  BinringError,
  ConnectionRefusedError,
  checkTransportable,
  type EntryKind__Output,
  NotReadyError,
  type OperationResult__Output,
  StaleEpochError,
  type Stamp,
  stampToWire,
  type WriteReply__Output,
  wireToBigint,
} from "@binring/core";
import type { ClientSession } from "./client-session.js";
import { classifyFailure } from "./failure-kind.js";
import { gaveUpError, unplacedError } from "./operation-errors.js";
import { writeReplicas } from "./sabotage.js";
import type { WriteKind } from "./write-request.js";

const WIRE_KIND: Record<WriteKind, EntryKind__Output> = {
  set: "ENTRY_KIND_SET",
  listAppend: "ENTRY_KIND_APPEND",
  listRemove: "ENTRY_KIND_REMOVE",
};

/** What the coordinator is given to answer in, below the client's own wait for one call. */
const COORDINATOR_MARGIN_MS = 250;

/** Where one write stands between attempts. */
interface WriteState {
  /** The stamp (and claim) the last coordinator reported: the next attempt keeps it. */
  stamp?: Stamp;
  claim?: string;
  /** An attempt may have been applied under a stamp this client never learned. */
  unknown: boolean;
}

/**
 * Sends the write to the bin's coordinator until one answers that every
 * replica has it, or the deadline passes. It moves on to the next replica as
 * coordinator only past one that serves no reads (gone, or not ready), as a
 * read does; a slow one is asked again. A failed replica the coordinator
 * names is judged here, with this client's view, as if this client had
 * called it (client-session.ts `noteFailure`).
 */
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
  const seq = session.nextSeq();
  const state: WriteState = { unknown: false };
  let requireReady = true;
  let lastError: unknown;
  for (let attempt = 0; ; attempt++) {
    const { readable } = session.placement(point);
    let notReady = 0;
    let roundError: unknown;
    for (const coordinator of readable) {
      // Placement again: a coordinator found gone a moment ago is no longer a replica.
      const { replicas } = session.placement(point);
      if (!replicas.includes(coordinator)) continue;
      const listed = writeReplicas(replicas, coordinator, session.sabotage);
      const remaining = deadline - session.time.now();
      try {
        const result = await session.transport.execute(coordinator, {
          write: {
            kind: WIRE_KIND[kind],
            entry: {
              target: session.target(bin, requireReady),
              key,
              value,
              writer: session.writer,
              seq,
              atLeast: session.clockSeen.toString(),
              stamp: state.stamp && stampToWire(state.stamp),
              claim: state.claim,
            },
            replicas: listed,
            coordinator: listed.indexOf(coordinator),
            retry: state.unknown,
            timeoutMs: Math.max(1, Math.min(remaining, session.attemptTimeoutMs - COORDINATOR_MARGIN_MS)),
          },
        });
        return acknowledged(session, result);
      } catch (error) {
        lastError = roundError = error;
        const outcome = await judgeFailure(session, coordinator, error, state);
        if (outcome === "not-ready") notReady++;
        if (outcome === "next-coordinator" || outcome === "not-ready") continue;
        break;
      }
    }
    if (requireReady && !session.view.hasKeepers && notReady > 0 && notReady === readable.length) {
      // Without keepers nothing makes a backend ready: coordinate on the first that answers (read-path.ts).
      requireReady = false;
      continue;
    }
    if (readable.length === 0) lastError ??= unplacedError(session, bin);
    if (session.time.now() >= deadline) throw gaveUpError("write", bin, session.callTimeoutMs, lastError);
    await session.pauseBeforeRound(attempt, roundError);
  }
}

function acknowledged(session: ClientSession, result: OperationResult__Output): WriteReply__Output {
  const reply = result.write!;
  session.observeClock(wireToBigint(reply.clock));
  for (let i = 0; i < reply.restamps; i++) session.observer.restamp();
  return reply;
}

/**
 * Notes a failed attempt (a fatal failure rethrows) and says what comes next:
 * another coordinator at once (this one serves no reads), or a pause and a new
 * round. The failure of a replica the coordinator names carries the stamp the
 * write had; one of the coordinator itself leaves the outcome unknown unless
 * nothing can have happened there (refused before it was sent, not ready,
 * a stale view: all checked before anything is stamped).
 */
async function judgeFailure(
  session: ClientSession,
  coordinator: string,
  error: unknown,
  state: WriteState,
): Promise<"next-coordinator" | "not-ready" | "new-round"> {
  const progress = error instanceof BinringError ? error.progress : undefined;
  if (progress) {
    if (progress.stamp) {
      state.stamp = progress.stamp;
      state.claim = progress.claim;
      state.unknown = false;
    }
    await session.noteFailure(progress.replica, error);
    return "new-round";
  }
  await session.noteFailure(coordinator, error);
  const nothingHappened =
    error instanceof NotReadyError ||
    error instanceof StaleEpochError ||
    error instanceof ConnectionRefusedError;
  if (!nothingHappened) state.unknown = true;
  const kind = classifyFailure(error);
  if (kind === "not-ready") return "not-ready";
  if (kind === "gone") return "next-coordinator";
  return "new-round";
}
