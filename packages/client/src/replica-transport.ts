// The calls the read and write paths make to one replica. Production runs them
// on BackendChannels (channel-transport.ts); tests on a fake that can hang,
// refuse, or answer with any error, without processes or sockets.
import type { Operation, OperationResult__Output } from "@binring/core";

export interface ReplicaTransport {
  /**
   * Runs one operation on the replica at `address`. Rejects with the
   * replica's error as a class from @binring/core (failure-kind.ts sorts
   * them), or with TimeoutError when it does not answer within `timeoutMs`
   * (the transport's own per-call deadline when absent): a call never hangs
   * for good.
   */
  execute(address: string, operation: Operation, timeoutMs?: number): Promise<OperationResult__Output>;
  /**
   * Whether a fresh connection to `address` is refused right now. A call's
   * "connection refused" may repeat an old attempt (a channel in reconnect
   * backoff); only a fresh refusal shows nothing listens there.
   */
  refusesConnections(address: string): Promise<boolean>;
}
