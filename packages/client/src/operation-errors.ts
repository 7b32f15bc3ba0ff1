// The errors a bin operation ends with when the replicas could not complete it.
import { InvalidArgumentError, OutcomeUnknownError, TimeoutError, UnavailableError } from "@binring/core";

export function noReplicaError(bin: string): UnavailableError {
  return new UnavailableError(`no backend of bin ${JSON.stringify(bin)} is reachable`);
}

/** No keeper answered yet: the client does not know the ring's members, so it places nothing. */
export function noViewError(): UnavailableError {
  return new UnavailableError(
    "no keeper has answered with the cluster view yet: the ring's members are unknown (the cluster file lists only the first ones)",
  );
}

/** Why a bin has no replica to call now. */
export function unplacedError(session: { view: { hasKeepers: boolean; hasView: boolean } }, bin: string) {
  return session.view.hasKeepers && !session.view.hasView ? noViewError() : noReplicaError(bin);
}

/** The operation's deadline passed; the error names the last failure seen. */
export function gaveUpError(what: string, bin: string, callTimeoutMs: number, lastError: unknown): Error {
  if (lastError instanceof InvalidArgumentError) return lastError;
  const failure = lastError ?? noReplicaError(bin);
  const reason = failure instanceof Error ? failure.message : String(failure);
  return new TimeoutError(
    `${what} in bin ${JSON.stringify(bin)} did not complete within ${callTimeoutMs} ms: ${reason}`,
  );
}

/**
 * A replica refused the write for good. If others already took it (replicas
 * can differ: a list at its limit on one of them only), it may still take
 * effect, so the caller must not be told it failed.
 */
export function refusedWriteError(bin: string, error: unknown, appliedOn: number): unknown {
  if (appliedOn === 0) return error;
  return new OutcomeUnknownError(
    `write in bin ${JSON.stringify(bin)} was taken by ${appliedOn} replica(s), then refused by another; it may or may not take effect: ${(error as Error).message}`,
  );
}
