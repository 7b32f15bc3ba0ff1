// What a keeper needs from the world, as narrow ports: one per backend and one
// per peer keeper. grpc-ports.ts connects them to real processes; tests
// connect them to in-process backends on a fake clock. The intent log and the
// copier work through the backend ports too.
import type {
  Entry,
  EntryFrame,
  HeartbeatReply__Output,
  HeartbeatRequest,
  KeeperBeat,
  KeeperBeat__Output,
  RingRange,
} from "@binring/core";

/** Reading and writing stamped entries: what copies and the intent log need of a backend. */
export interface EntryPort {
  /** Every entry of the ranges; fails once the backend sends nothing for `idleTimeoutMs`, however long it runs. */
  scan(ranges: readonly RingRange[], batchSize: number, idleTimeoutMs: number): AsyncIterable<Entry[]>;
  apply(entries: readonly Entry[], epoch: bigint, timeoutMs: number): Promise<unknown>;
  /**
   * `scan` with each entry as its encoded frame (core's entry-frames.ts): what
   * copies read. `bytesPerSecond`: the backend reads its store no faster (0 or
   * undefined: as fast as they are taken). `requireReady`: refused (NotReadyError)
   * unless the backend is ready, and failed unless it stayed ready throughout.
   */
  scanFrames(
    ranges: readonly RingRange[],
    batchSize: number,
    idleTimeoutMs: number,
    bytesPerSecond?: number,
    requireReady?: boolean,
  ): AsyncIterable<EntryFrame[]>;
  /** `apply` of encoded frames: what copies write. */
  applyFrames(frames: readonly EntryFrame[], epoch: bigint, timeoutMs: number): Promise<unknown>;
}

/** The control calls a keeper makes to one backend. */
export interface BackendPort extends EntryPort {
  heartbeat(request: HeartbeatRequest, timeoutMs: number): Promise<HeartbeatReply__Output>;
  /** Empties the store of `incarnation` as its owner under `ownerTerm`; resolves with the incarnation it ended in. */
  empty(
    incarnation: string,
    ownerTerm: bigint,
    timeoutMs: number,
  ): Promise<{ bins: number; incarnation: string }>;
  /** Drops every bin of the ranges under the view at `epoch`; resolves with how many bins it dropped. */
  drop(ranges: readonly RingRange[], epoch: bigint, timeoutMs: number): Promise<number>;
}

export interface PeerPort {
  /** Sends our beat; resolves with the peer's, taken after it merged ours. */
  beat(beat: KeeperBeat, timeoutMs: number): Promise<KeeperBeat__Output>;
}

export interface KeeperPorts {
  backend(address: string): BackendPort;
  peer(address: string): PeerPort;
  close(): void;
}
