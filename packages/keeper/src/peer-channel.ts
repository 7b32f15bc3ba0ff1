// One connection to another keeper, for beats.
import {
  clientSecurity,
  type KeeperBeat,
  type KeeperBeat__Output,
  type KeeperPeerClient,
  loadProtocol,
  type TlsFiles,
} from "@binring/core";

export class PeerChannel {
  readonly #client: KeeperPeerClient;

  constructor(
    readonly address: string,
    tls?: TlsFiles,
  ) {
    const security = clientSecurity(tls, "keeper");
    this.#client = new (loadProtocol().KeeperPeer)(address, security.credentials, {
      ...security.options,
      "grpc.initial_reconnect_backoff_ms": 100,
      "grpc.max_reconnect_backoff_ms": 1000,
    });
  }

  /** Sends our beat; resolves with the peer's, taken after it merged ours. */
  beat(beat: KeeperBeat, timeoutMs: number): Promise<KeeperBeat__Output> {
    return new Promise((resolve, reject) => {
      this.#client.Beat(beat, { deadline: new Date(Date.now() + timeoutMs) }, (error, reply) =>
        error || !reply ? reject(error ?? new Error("empty beat")) : resolve(reply),
      );
    });
  }

  close(): void {
    this.#client.close();
  }
}
