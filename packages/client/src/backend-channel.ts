// One connection to one backend: its data operations, batched per turn onto
// one long-lived Pipe stream or link (pipe-batches.ts), and the calls only
// keepers make (Apply, Scan, Drop, Empty, Heartbeats) on the same HTTP/2
// connection.
import {
  applyRequestOfFrames,
  type BatchReply__Output,
  type BinringError,
  bigintToWire,
  ConnectionRefusedError,
  clientSecurity,
  type Entry,
  type EntryFrame,
  entryFromWire,
  entryToWire,
  fromServiceError,
  type HeartbeatReply__Output,
  type HeartbeatRequest,
  loadProtocol,
  MAX_OPERATIONS_PER_MESSAGE,
  type Operation,
  type OperationResult__Output,
  type RingRange,
  type StorageControlClient,
  splitEntryFrames,
  TimeoutError,
  type TlsFiles,
  UnavailableError,
  type StorageClient as WireStorageClient,
  wireToBigint,
} from "@binring/core";
import * as grpc from "@grpc/grpc-js";
import { BACKEND_CHANNEL_OPTIONS } from "./backend-channel-options.js";
import { HeartbeatStream } from "./heartbeat-stream.js";
import { untilSilent } from "./idle-stream.js";
import { LinkPipe } from "./link-pipe.js";
import { type Pipe, PipeBatches, type PipeEvents } from "./pipe-batches.js";

export interface BackendChannelOptions {
  /** Deadline of one call (or of one batch on the stream). @default 10000 */
  callTimeoutMs?: number;
  /** Most operations in one batch (at most MAX_OPERATIONS_PER_MESSAGE); a batch also stops at MESSAGE_BUDGET_BYTES. @default 512 */
  maxBatchSize?: number;
  /** Longest operations wait for the batch in flight to be answered before they are sent anyway. @default 50 */
  maxHoldMs?: number;
  /** Mutual TLS: the certificate to present and the CA to trust. @default plaintext */
  tls?: TlsFiles;
  /**
   * Carry the batches on a link (link-pipe.ts: the same messages, framed on a
   * plain TCP or TLS connection) instead of gRPC's Pipe stream: what backends
   * use between themselves. Control calls stay on gRPC. @default false
   */
  link?: boolean;
}

export class BackendChannel {
  readonly #client: WireStorageClient;
  /** Replication, repair and readiness calls (keepers only), on the same connection. */
  readonly #control: StorageControlClient;
  readonly #callTimeoutMs: number;
  /** Mutual TLS for links; undefined: plaintext, or not a link channel. */
  readonly #tls: TlsFiles | undefined;
  readonly #link: boolean;
  readonly #operations: PipeBatches;
  /** A keeper's heartbeats, on a stream of their own; undefined until the first. */
  #heartbeats: HeartbeatStream | undefined;

  constructor(
    readonly address: string,
    options: BackendChannelOptions = {},
  ) {
    const { Storage, StorageControl } = loadProtocol();
    const security = clientSecurity(options.tls, "backend");
    const channelOptions = { ...BACKEND_CHANNEL_OPTIONS, ...security.options };
    // grpc-js connects lazily: creating the client never fails, even if the backend is not up yet.
    this.#client = new Storage(address, security.credentials, channelOptions);
    this.#control = new StorageControl(address, security.credentials, {
      ...channelOptions,
      channelOverride: this.#client.getChannel(),
    });
    this.#callTimeoutMs = options.callTimeoutMs ?? 10_000;
    this.#tls = options.tls;
    this.#link = options.link ?? false;
    this.#operations = new PipeBatches(address, (events) => this.#openPipe(events), {
      callTimeoutMs: this.#callTimeoutMs,
      maxBatchSize: Math.min(options.maxBatchSize ?? 512, MAX_OPERATIONS_PER_MESSAGE),
      maxHoldMs: options.maxHoldMs,
    });
  }

  /** Batches and operations sent on pipes so far: their ratio is the mean batch size. */
  get sent(): { batches: number; operations: number } {
    return this.#operations.sent;
  }

  #deadline(timeoutMs = this.#callTimeoutMs): Date {
    return new Date(Date.now() + timeoutMs);
  }

  /** Runs one operation, batched with its neighbours (pipe-batches.ts `execute`). */
  execute(operation: Operation, timeoutMs?: number): Promise<OperationResult__Output> {
    return this.#operations.execute(operation, timeoutMs);
  }

  /** Sends the operation with the next batch, or soon; nothing waits for its answer (pipe-batches.ts `notify`). */
  notify(operation: Operation): void {
    this.#operations.notify(operation);
  }

  #openPipe(events: PipeEvents): Pipe {
    if (this.#link) {
      const link = new LinkPipe(this.address, this.#tls);
      link.on("error", (error: BinringError) => events.failed(error));
      link.on("data", (reply: BatchReply__Output) => events.data(reply));
      link.on("end", () => events.failed(new UnavailableError(`backend ${this.address} closed the link`)));
      return link;
    }
    const stream = this.#client.Pipe();
    stream.on("error", (error: grpc.ServiceError) => events.failed(callFailure(error, this.address)));
    stream.on("data", (reply: BatchReply__Output) => events.data(reply));
    stream.on("end", () => events.failed(new UnavailableError(`backend ${this.address} ended the stream`)));
    return stream;
  }

  /** Idempotent apply of stamped entries; returns the backend's clock afterwards. */
  apply(entries: readonly Entry[], epoch: bigint, timeoutMs?: number): Promise<bigint> {
    return new Promise((resolve, reject) => {
      this.#control.Apply(
        { entries: entries.map(entryToWire), epoch: bigintToWire(epoch) },
        { deadline: this.#deadline(timeoutMs) },
        (error, reply) =>
          error || !reply ? reject(this.#failure(error)) : resolve(wireToBigint(reply.clock)),
      );
    });
  }

  /** Every entry of the bins in the ranges, batch by batch; fails once the backend is silent for `idleTimeoutMs` (idle-stream.ts). */
  scan(ranges: readonly RingRange[], batchSize: number, idleTimeoutMs?: number): AsyncIterable<Entry[]> {
    const stream = this.#control.Scan({ ranges: [...ranges], batchSize });
    return this.#batches(stream, idleTimeoutMs, (message) =>
      message.entries.map((entry) => entryFromWire(entry)),
    );
  }

  /** `apply` of entries still encoded, as `scanFrames` gives them (entry-frames.ts). */
  applyFrames(frames: readonly EntryFrame[], epoch: bigint, timeoutMs?: number): Promise<bigint> {
    const { path, responseDeserialize } = loadProtocol().StorageControl.service.Apply;
    return new Promise((resolve, reject) => {
      this.#control.makeUnaryRequest(
        path,
        (request: Buffer) => request,
        responseDeserialize,
        applyRequestOfFrames(frames, epoch),
        { deadline: this.#deadline(timeoutMs) },
        (error, reply) =>
          error || !reply ? reject(this.#failure(error)) : resolve(wireToBigint(reply.clock)),
      );
    });
  }

  /** `scan` as encoded frames (entry-frames.ts), paced and bound to readiness as ScanRequest says. */
  scanFrames(
    ranges: readonly RingRange[],
    batchSize: number,
    idleTimeoutMs?: number,
    bytesPerSecond = 0,
    requireReady = false,
  ): AsyncIterable<EntryFrame[]> {
    const { path, requestSerialize } = loadProtocol().StorageControl.service.Scan;
    const stream = this.#control.makeServerStreamRequest(
      path,
      requestSerialize,
      (message: Buffer) => message,
      { ranges: [...ranges], batchSize, bytesPerSecond, requireReady },
    );
    return this.#batches(stream, idleTimeoutMs, splitEntryFrames);
  }

  /** A Scan stream's messages, each made a batch by `batch`; a failure as a BinringError. */
  async *#batches<M, T>(
    stream: grpc.ClientReadableStream<M>,
    idleTimeoutMs = this.#callTimeoutMs,
    batch: (message: M) => T,
  ): AsyncIterable<T> {
    try {
      for await (const message of untilSilent(stream, idleTimeoutMs, `scan of ${this.address}`))
        yield batch(message);
    } catch (error) {
      throw error instanceof TimeoutError ? error : this.#failure(error as grpc.ServiceError);
    }
  }

  /** Drops the ranges' bins for a keeper whose view is at `epoch` (refused under an older view than the backend's). */
  drop(ranges: readonly RingRange[], epoch: bigint, timeoutMs?: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#control.Drop(
        { ranges: [...ranges], epoch: bigintToWire(epoch) },
        { deadline: this.#deadline(timeoutMs) },
        (error, reply) => (error || !reply ? reject(this.#failure(error)) : resolve(Number(reply.bins))),
      );
    });
  }

  /**
   * Empties the backend if it is still `incarnation`, not ready, and owned
   * under `ownerTerm` (0: by no keeper yet); resolves with the incarnation after.
   */
  empty(
    incarnation: string,
    ownerTerm: bigint,
    timeoutMs?: number,
  ): Promise<{ bins: number; incarnation: string }> {
    return new Promise((resolve, reject) => {
      this.#control.Empty(
        { incarnation, ownerTerm: bigintToWire(ownerTerm) },
        { deadline: this.#deadline(timeoutMs) },
        (error, reply) =>
          error || !reply
            ? reject(this.#failure(error))
            : resolve({ bins: Number(reply.bins), incarnation: reply.incarnation }),
      );
    });
  }

  heartbeat(request: HeartbeatRequest, timeoutMs = this.#callTimeoutMs): Promise<HeartbeatReply__Output> {
    this.#heartbeats ??= new HeartbeatStream(this.#control, this.address, (error) =>
      callFailure(error, this.address),
    );
    return this.#heartbeats.send(request, timeoutMs);
  }

  #failure(error: grpc.ServiceError | null): BinringError {
    if (!error) return new UnavailableError(`backend ${this.address} sent an empty reply`);
    if (error.code === grpc.status.DEADLINE_EXCEEDED) {
      return new TimeoutError(`backend ${this.address} did not answer within its deadline`);
    }
    return callFailure(error, this.address);
  }

  close(): void {
    this.#operations.close(new UnavailableError(`client for ${this.address} closed`));
    this.#heartbeats?.close();
    this.#client.close();
  }
}

/**
 * A failed call or stream as its binring error. A refused connection is told
 * apart here, at the transport's edge, and only here by its text: grpc-js
 * fails a call whose connection attempt failed with UNAVAILABLE and the
 * socket error as a string in `details` ("No connection established. Last
 * error: connect ECONNREFUSED ..."): its subchannel keeps `${error}`, not the
 * error, so no errno reaches the call. The channel's connectivity state does
 * not tell a refusal from a connect timeout (a paused backend), which must
 * not count as gone. An error a backend sent has its reason and class
 * already, and is never read this way.
 */
function callFailure(error: grpc.ServiceError, address: string): BinringError {
  const failure = fromServiceError(error, address);
  if (Object.getPrototypeOf(failure) === UnavailableError.prototype && /ECONNREFUSED/.test(error.details))
    return new ConnectionRefusedError(failure.message, { cause: error });
  return failure;
}
