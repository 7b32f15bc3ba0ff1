// What a write's coordinator (write-coordinator.ts, write-fan-out.ts) needs
// from the backend it runs on; the backend's write-coordination.ts provides it.
import type { Operation, OperationResult__Output, Stamp } from "@binring/core";
import type { ReplicaTransport } from "./replica-transport.js";
import type { WallTime } from "./wall-time.js";

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
  /**
   * Sends `operation` to the replica at `address` with the next message that
   * goes there, or soon; nothing waits for its answer (a release, which the
   * replica also gets by forwarding the entry itself: write-fan-out.ts).
   */
  notify(address: string, operation: Operation): void;
}
