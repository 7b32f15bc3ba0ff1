// The production ReplicaTransport: one BackendChannel per backend of the
// cluster, created up front (they connect lazily).
import {
  InvalidArgumentError,
  type Operation,
  type OperationResult__Output,
  type TlsFiles,
} from "@binring/core";
import { BackendChannel } from "./backend-channel.js";
import { refusesConnections } from "./connection-probe.js";
import type { ReplicaTransport } from "./replica-transport.js";

/** Deadline of a reachability probe's heartbeat. */
const PROBE_TIMEOUT_MS = 1000;

export class ChannelTransport implements ReplicaTransport {
  readonly #channels = new Map<string, BackendChannel>();

  constructor(backends: readonly string[], backendCallTimeoutMs: number, tls?: TlsFiles, link = false) {
    for (const address of backends) {
      this.#channels.set(
        address,
        new BackendChannel(address, { callTimeoutMs: backendCallTimeoutMs, tls, link }),
      );
    }
  }

  channel(address: string): BackendChannel {
    const channel = this.#channels.get(address);
    if (!channel) throw new InvalidArgumentError(`${address} is not a backend of this cluster`);
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
    for (const channel of this.#channels.values()) channel.close();
  }
}
