// How a failed call to one replica affects an operation.
import {
  ClockBehindError,
  ConnectionRefusedError,
  InvalidArgumentError,
  ListFullError,
  NotReadyError,
  OutcomeUnknownError,
  OutOfRangeError,
  PermissionDeniedError,
  ReplyTooLargeError,
  StaleEpochError,
  StoreUnavailableError,
} from "@binring/core";

/**
 * - "fatal": the request itself is bad, or passes a limit (a full list, a
 *   reply too large), or the caller's certificate does not allow the call,
 *   or a replica stays far behind the write's clock after the coordinator
 *   raised it (write-coordinator.ts `applyCatchingUp`), or a replica refused
 *   for good a write others had taken (of unknown outcome, OutcomeUnknownError).
 * - "gone": the replica certainly serves no reads now (nothing listens on its
 *   port, or its store failed and it revoked its own readiness): a write may
 *   skip it, because whatever comes back there must be refilled before it is
 *   read. A refused connection is confirmed before it counts (connection-probe.ts).
 * - "stale-view": the caller's cluster view is out of date; refresh and retry.
 * - "not-ready": the replica may miss entries; read elsewhere (writes still go there).
 * - "retry": the replica may be alive but slow or paused (slow is not dead,
 *   HAZARDS.md 9); a write must not skip it until it is known dead.
 *
 * Only the error's class decides (rebuilt from the code and reason that
 * crossed the wire, core/errors.ts), never its message: rewording a message
 * must not change when a write is acknowledged.
 */
export type FailureKind = "fatal" | "gone" | "stale-view" | "not-ready" | "retry";

export function classifyFailure(error: unknown): FailureKind {
  if (
    error instanceof InvalidArgumentError ||
    error instanceof OutOfRangeError ||
    error instanceof ListFullError ||
    error instanceof ReplyTooLargeError ||
    error instanceof PermissionDeniedError ||
    error instanceof ClockBehindError ||
    error instanceof OutcomeUnknownError
  )
    return "fatal";
  if (error instanceof StaleEpochError) return "stale-view";
  if (error instanceof NotReadyError) return "not-ready";
  if (error instanceof StoreUnavailableError || error instanceof ConnectionRefusedError) return "gone";
  return "retry";
}

/** The failure reports a refused connection, which must be confirmed before it counts as "gone". */
export function reportsRefusedConnection(error: unknown): boolean {
  return error instanceof ConnectionRefusedError;
}
