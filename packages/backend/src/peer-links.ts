// The connections a backend coordinating writes keeps to the other replicas:
// one BackendChannel each, on a link (client link-pipe.ts: the Pipe's messages
// framed on a TCP or TLS connection, the operations of one turn batched into
// one message), made on first use. Which backends a write lists
// is the client's to say, so the number kept is capped: past it, the least
// recently used link is closed (a caller naming many addresses cannot make a
// backend hold a connection to each).
import { BackendChannel, type ReplicaTransport, refusesConnections } from "@binring/client";
import type { Operation, OperationResult__Output, TlsFiles } from "@binring/core";

/** Most links kept open at once: a cluster's backends, with room to spare. */
export const MAX_PEER_LINKS = 64;
/** How long a forwarded operation waits for its replica unless the coordinator says (write-coordinator.ts `forwardTimeoutMs`). */
export const PEER_CALL_TIMEOUT_MS = 1000;

export class PeerLinks implements ReplicaTransport {
  /** By address, least recently used first. */
  readonly #links = new Map<string, BackendChannel>();

  constructor(private readonly tls: TlsFiles | undefined) {}

  execute(address: string, operation: Operation, timeoutMs?: number): Promise<OperationResult__Output> {
    return this.#link(address).execute(operation, timeoutMs);
  }

  /** Sends the operation to `address` with the next batch that goes there, or soon; its answer is not waited for. */
  notify(address: string, operation: Operation): void {
    this.#link(address).notify(operation);
  }

  refusesConnections(address: string): Promise<boolean> {
    return refusesConnections(address);
  }

  #link(address: string): BackendChannel {
    let link = this.#links.get(address);
    if (link) {
      this.#links.delete(address);
    } else {
      link = new BackendChannel(address, { callTimeoutMs: PEER_CALL_TIMEOUT_MS, tls: this.tls, link: true });
      if (this.#links.size >= MAX_PEER_LINKS) {
        const [oldest, channel] = this.#links.entries().next().value as [string, BackendChannel];
        this.#links.delete(oldest);
        channel.close();
      }
    }
    this.#links.set(address, link);
    return link;
  }

  close(): void {
    for (const link of this.#links.values()) link.close();
    this.#links.clear();
  }
}
