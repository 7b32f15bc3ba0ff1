// Read: from the first replica that answers and is ready, falling through to
// the next; a later replica holds everything an earlier one shows
// (docs/ARCHITECTURE.md, "Read path").
import type { Operation, OperationResult__Output, Target } from "@binring/core";
import type { ClientSession } from "./client-session.js";
import { classifyFailure } from "./failure-kind.js";
import { gaveUpError, unplacedError } from "./operation-errors.js";

/** A replica that failed this way holds no readable state a later read could contradict. */
function servesNoReads(error: unknown): boolean {
  const kind = classifyFailure(error);
  return kind === "gone" || kind === "not-ready";
}

/**
 * Runs a read on the first replica that can serve it, until the deadline.
 * It falls through to the next replica only past one that serves no reads
 * (gone, or not ready). One that is slow or paused may still be ready, and
 * a later replica may show a write that is still on its way to it: reading
 * there and then here could go back in time. So the read waits for it, or
 * for the keepers to declare it dead, which removes it from placement. Nor
 * does it fall through to a replica that may lack acknowledged entries (a
 * stand-in still being repaired, Placement.readable): it waits for an
 * earlier one to serve reads again, or for the repair to end.
 * Without keepers no backend is ever made ready except by --ready: when every
 * replica of the bin answers not ready, the read goes to the first that
 * answers at all rather than wait for a readiness nothing will grant.
 * The request is rebuilt per attempt: it carries the current view's epoch.
 */
export async function readFromReplicas(
  session: ClientSession,
  bin: string,
  point: number,
  operation: (target: Target) => Operation,
  deadline = session.time.now() + session.callTimeoutMs,
): Promise<OperationResult__Output> {
  let lastError: unknown;
  let requireReady = true;
  for (let attempt = 0; ; attempt++) {
    let notReady = 0;
    let roundError: unknown;
    const { readable } = session.placement(point);
    for (const address of readable) {
      try {
        return await session.transport.execute(address, operation(session.target(bin, requireReady)));
      } catch (error) {
        await session.noteFailure(address, error);
        lastError = roundError = error;
        if (classifyFailure(error) === "not-ready") notReady++;
        if (!servesNoReads(error)) break;
      }
    }
    if (requireReady && !session.view.hasKeepers && notReady > 0 && notReady === readable.length) {
      requireReady = false;
      continue;
    }
    if (readable.length === 0) lastError ??= unplacedError(session, bin);
    if (session.time.now() >= deadline) throw gaveUpError("read", bin, session.callTimeoutMs, lastError);
    await session.pauseBeforeRound(attempt, roundError);
  }
}
