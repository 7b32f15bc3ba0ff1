// Read: from the first replica that answers and is ready, falling through to
// the next; a later replica holds everything an earlier one shows
// (docs/ARCHITECTURE.md, "Read path").
import type { Operation, OperationResult__Output, Target } from "@binring/core";
import type { ClientSession } from "./client-session.js";
import { classifyFailure } from "./failure-kind.js";
import { gaveUpError } from "./operation-errors.js";
import { retryPauseMs } from "./wall-time.js";

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
  for (let attempt = 0; ; attempt++) {
    for (const address of session.placement(point).readable) {
      try {
        return await session.transport.execute(address, operation(session.target(bin, true)));
      } catch (error) {
        await session.noteFailure(address, error);
        lastError = error;
        if (!servesNoReads(error)) break;
      }
    }
    if (session.time.now() >= deadline) throw gaveUpError("read", bin, session.callTimeoutMs, lastError);
    await Promise.all([session.time.sleep(retryPauseMs(attempt)), session.view.refresh()]);
  }
}
