// A backend's side of the replicated write path: a client's WriteRequest,
// checked and run by the coordinator (@binring/client write-coordinator.ts)
// on this backend's own calls and on links to the other replicas.
import { type CoordinatorHost, coordinateWrite, parseWriteRequest, systemTime } from "@binring/client";
import type {
  Operation,
  OperationResult__Output,
  WriteReply__Output,
  WriteRequest__Output,
} from "@binring/core";
import type { BackendNode } from "./backend-node.js";
import type { PeerLinks } from "./peer-links.js";
import { newClaimId } from "./write-fences.js";

export class WriteCoordination {
  readonly #host: CoordinatorHost;

  constructor(
    links: PeerLinks,
    /** Runs one operation on this backend; rejects with its error. */
    local: (operation: Operation) => Promise<OperationResult__Output>,
    node: BackendNode,
  ) {
    this.#host = {
      local,
      holdsAppend: (bin, key, value, stamp) => node.holdsAppend(bin, key, value, stamp),
      peers: links,
      time: systemTime,
      newClaimId,
      notify: (address, operation) => links.notify(address, operation),
    };
  }

  write(request: WriteRequest__Output): Promise<WriteReply__Output> {
    return coordinateWrite(this.#host, parseWriteRequest(request, this.#host.time.now()));
  }
}
