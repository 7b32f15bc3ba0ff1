// The production ReplicaTransport: one BackendChannel per backend, created
// when first used (they connect lazily), so backends that join the ring while
// the client runs are reached like the others.
import type { Operation, OperationResult__Output, TlsFiles } from "@binring/core";
import { BackendChannel } from "./backend-channel.js";
import { refusesConnections } from "./connection-probe.js";
import type { ReplicaTransport } from "./replica-transport.js";

/** Deadline of a reachability probe's heartbeat. */
const PROBE_TIMEOUT_MS = 1000;

export class ChannelTransport implements ReplicaTransport {
  readonly #channels = new Map<string, BackendChannel>();
  #closed = false;

  constructor(
    private readonly backendCallTimeoutMs: number,
    private readonly tls?: TlsFiles,
    private readonly link = false,
  ) {}

  channel(address: string): BackendChannel {
    let channel = this.#channels.get(address);
    if (!channel) {
      channel = new BackendChannel(address, {
        callTimeoutMs: this.backendCallTimeoutMs,
        tls: this.tls,
        link: this.link,
      });
      // A call still retrying after close gets a closed channel: an open one would outlive the client.
      if (this.#closed) channel.close();
      else this.#channels.set(address, channel);
    }
    return channel;
  }

  execute(address: string, operation: Operation, timeoutMs?: number): Promise<OperationResult__Output> {
    return this.channel(address).execute(operation, timeoutMs);
  }

  refusesConnections(address: string): Promise<boolean> {
    return refusesConnections(address);
  }

  /** Resolves when the backend answers a heartbeat; rejects otherwise. */
  async probe(address: string): Promise<void> {
    await this.channel(address).heartbeat({}, PROBE_TIMEOUT_MS);
  }

  close(): void {
    this.#closed = true;
    for (const channel of this.#channels.values()) channel.close();
  }
}
