// One connection to another keeper, for beats.
import { type KeeperBeat, type KeeperBeat__Output, type KeeperClient, loadProtocol } from "@binring/core";
import * as grpc from "@grpc/grpc-js";

export class PeerChannel {
  readonly #client: KeeperClient;

  constructor(readonly address: string) {
    this.#client = new (loadProtocol().Keeper)(address, grpc.credentials.createInsecure(), {
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
