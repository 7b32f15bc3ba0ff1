// One connection to one backend. Operations issued in the same event-loop turn
// are coalesced into one batch (as ioredis auto-pipelines commands), and
// batches travel on one long-lived Pipe stream, answered by id: one unary call
// per operation caps a backend near 4k ops/s, while stream messages and
// batches cost a fraction of that per operation (shared/PERFORMANCE.md).
//
// While a batch is unanswered, the next one is held until the answer comes
// (Nagle's rule), up to `maxHoldMs`: without that, a write's continuations
// trickled out a few operations per message (3.7 on average at 64 concurrent
// sets on 6 backends); with it, batches doubled and set throughput rose
// 15-30%. One operation alone is never held: nothing is in flight then.
import {
  applyRequestOfFrames,
  type BatchReply__Output,
  type BatchRequest,
  type BinringError,
  bigintToWire,
  ConnectionRefusedError,
  clientSecurity,
  type Entry,
  type EntryFrame,
  entryFromWire,
  entryToWire,
  fromOperationError,
  fromServiceError,
  type HeartbeatReply__Output,
  type HeartbeatRequest,
  loadProtocol,
  MAX_OPERATIONS_PER_MESSAGE,
  MESSAGE_BUDGET_BYTES,
  type Operation,
  type OperationResult__Output,
  type RingRange,
  type StorageControlClient,
  splitEntryFrames,
  TimeoutError,
  type TlsFiles,
  TurnBatch,
  UnavailableError,
  type StorageClient as WireStorageClient,
  wireToBigint,
} from "@binring/core";
import * as grpc from "@grpc/grpc-js";
import { BACKEND_CHANNEL_OPTIONS } from "./backend-channel-options.js";
import { HeartbeatStream } from "./heartbeat-stream.js";
import { untilSilent } from "./idle-stream.js";
import { LinkPipe } from "./link-pipe.js";
import { operationBytes } from "./operation-bytes.js";

/** Longest a notice (`notify`) waits for a batch to ride with before it is sent alone. */
export const NOTICE_DELAY_MS = 10;

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

interface PendingOperation {
  operation: Operation;
  /** How long its caller waits; the channel's call timeout when undefined. */
  timeoutMs: number | undefined;
  /** An upper bound on the operation's encoded size. */
  bytes: number;
  resolve(result: OperationResult__Output): void;
  reject(error: BinringError): void;
}

/** A Pipe stream as this channel uses it: gRPC's, or a link's (link-pipe.ts). */
interface Pipe {
  write(request: BatchRequest): unknown;
  cancel(): void;
}

/** A batch sent on a pipe and not answered yet. */
interface InFlightBatch {
  pipe: Pipe;
  operations: PendingOperation[];
  /** Results received so far: a reply may come in parts (BatchReply.partial). */
  answered: number;
  /** Fails the batch when the backend does not answer within the call timeout. */
  timer: NodeJS.Timeout;
}

export class BackendChannel {
  readonly #client: WireStorageClient;
  /** Replication, repair and readiness calls (keepers only), on the same connection. */
  readonly #control: StorageControlClient;
  readonly #callTimeoutMs: number;
  readonly #maxBatchSize: number;
  /** Mutual TLS for links; undefined: plaintext, or not a link channel. */
  readonly #tls: TlsFiles | undefined;
  readonly #link: boolean;
  readonly #queue: TurnBatch<PendingOperation>;
  /** Notices waiting to ride with the next batch (`notify`), and the timer that sends them alone. */
  #notices: PendingOperation[] = [];
  #noticeTimer: NodeJS.Timeout | undefined;
  #closed = false;
  /** The open stream; undefined until the first batch and after the stream failed. */
  #pipe: Pipe | undefined;
  readonly #inFlight = new Map<number, InFlightBatch>();
  /** A keeper's heartbeats, on a stream of their own; undefined until the first. */
  #heartbeats: HeartbeatStream | undefined;
  #lastBatchId = 0;
  /** Batches and operations sent on pipes so far: their ratio is the mean batch size. */
  readonly sent = { batches: 0, operations: 0 };

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
    this.#maxBatchSize = Math.min(options.maxBatchSize ?? 512, MAX_OPERATIONS_PER_MESSAGE);
    this.#queue = new TurnBatch((queue) => this.#sendInBatches(queue), {
      hold: () => this.#inFlight.size > 0,
      maxHoldMs: options.maxHoldMs,
    });
  }

  #deadline(timeoutMs = this.#callTimeoutMs): Date {
    return new Date(Date.now() + timeoutMs);
  }

  /**
   * Runs one operation (batched with its neighbours); rejects with the
   * operation's own error, or TimeoutError when its batch is not answered
   * within the longest wait any of its operations asked for (`timeoutMs`, or
   * the channel's call timeout).
   */
  execute(operation: Operation, timeoutMs?: number): Promise<OperationResult__Output> {
    if (this.#closed) return Promise.reject(new UnavailableError(`client for ${this.address} is closed`));
    return new Promise((resolve, reject) => {
      this.#queue.add({ operation, timeoutMs, bytes: operationBytes(operation), resolve, reject });
    });
  }

  /**
   * Sends the operation with the next batch to this backend, or alone within
   * NOTICE_DELAY_MS when none goes sooner; nothing waits for its answer, and
   * one the channel cannot deliver is dropped. For what the backend also
   * learns another way, when it matters, and would cost a message of its own
   * otherwise: a withheld set's release (write-fan-out.ts).
   */
  notify(operation: Operation): void {
    if (this.#closed) return;
    const ignore = () => undefined;
    this.#notices.push({
      operation,
      timeoutMs: undefined,
      bytes: operationBytes(operation),
      resolve: ignore,
      reject: ignore,
    });
    this.#noticeTimer ??= setTimeout(() => {
      this.#noticeTimer = undefined;
      for (const notice of this.#takeNotices()) this.#queue.add(notice);
    }, NOTICE_DELAY_MS);
  }

  #takeNotices(): PendingOperation[] {
    clearTimeout(this.#noticeTimer);
    this.#noticeTimer = undefined;
    const notices = this.#notices;
    this.#notices = [];
    return notices;
  }

  /** Sends the turn's operations (and the notices waiting) in batches of at most maxBatchSize operations and about MESSAGE_BUDGET_BYTES. */
  #sendInBatches(turn: PendingOperation[]): void {
    const queue = this.#notices.length > 0 ? [...this.#takeNotices(), ...turn] : turn;
    let start = 0;
    let bytes = 0;
    for (let i = 0; i < queue.length; i++) {
      const full =
        i - start === this.#maxBatchSize || (i > start && bytes + queue[i]!.bytes > MESSAGE_BUDGET_BYTES);
      if (full) {
        this.#send(queue.slice(start, i));
        start = i;
        bytes = 0;
      }
      bytes += queue[i]!.bytes;
    }
    if (queue.length > start) this.#send(start === 0 ? queue : queue.slice(start));
  }

  #send(operations: PendingOperation[]): void {
    const pipe = this.#openPipe();
    this.#lastBatchId = (this.#lastBatchId + 1) >>> 0;
    const id = this.#lastBatchId;
    let waitMs = 0;
    for (const pending of operations) waitMs = Math.max(waitMs, pending.timeoutMs ?? this.#callTimeoutMs);
    const timer = setTimeout(
      () =>
        this.#failBatch(id, new TimeoutError(`backend ${this.address} did not answer within ${waitMs} ms`)),
      waitMs,
    );
    this.#inFlight.set(id, { pipe, operations, answered: 0, timer });
    this.sent.batches++;
    this.sent.operations += operations.length;
    pipe.write({ id, operations: operations.map((p) => p.operation) });
  }

  #openPipe(): Pipe {
    if (this.#pipe) return this.#pipe;
    let pipe: Pipe;
    if (this.#link) {
      const link = new LinkPipe(this.address, this.#tls);
      link.on("error", (error: BinringError) => this.#pipeFailed(link, error));
      link.on("data", (reply: BatchReply__Output) => this.#answer(reply));
      link.on("end", () =>
        this.#pipeFailed(link, new UnavailableError(`backend ${this.address} closed the link`)),
      );
      pipe = link;
    } else {
      const stream = this.#client.Pipe();
      stream.on("error", (error: grpc.ServiceError) =>
        this.#pipeFailed(stream, callFailure(error, this.address)),
      );
      stream.on("data", (reply: BatchReply__Output) => this.#answer(reply));
      stream.on("end", () =>
        this.#pipeFailed(stream, new UnavailableError(`backend ${this.address} ended the stream`)),
      );
      pipe = stream;
    }
    this.#pipe = pipe;
    return pipe;
  }

  /** Removes an in-flight batch and returns its operations; undefined when already settled. */
  #settle(id: number): PendingOperation[] | undefined {
    const batch = this.#inFlight.get(id);
    if (!batch) return undefined;
    this.#inFlight.delete(id);
    clearTimeout(batch.timer);
    this.#queue.resume();
    return batch.operations;
  }

  #failBatch(id: number, failure: BinringError): void {
    for (const pending of this.#settle(id) ?? []) pending.reject(failure);
  }

  /** Settles the operations a reply (or a part of one) answers; the batch is done with its last part. */
  #answer(reply: BatchReply__Output): void {
    const batch = this.#inFlight.get(reply.id);
    if (!batch) return;
    const first = batch.answered;
    batch.answered += reply.results.length;
    if (!reply.partial) this.#settle(reply.id);
    batch.operations.forEach((pending, i) => {
      if (i < first) return;
      const result = reply.results[i - first];
      if (!result) {
        if (!reply.partial)
          pending.reject(new UnavailableError(`backend ${this.address} sent too few results`));
      } else if (result.result === "error" && result.error) {
        pending.reject(fromOperationError(result.error));
      } else pending.resolve(result);
    });
  }

  /** Fails every batch still waiting on a stream that broke; the next batch opens a new one. */
  #pipeFailed(pipe: Pipe, failure: BinringError): void {
    if (this.#pipe === pipe) this.#pipe = undefined;
    for (const [id, batch] of this.#inFlight) {
      if (batch.pipe === pipe) this.#failBatch(id, failure);
    }
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
    this.#closed = true;
    this.#takeNotices();
    const closed = new UnavailableError(`client for ${this.address} closed`);
    for (const pending of this.#queue.take()) pending.reject(closed);
    const pipe = this.#pipe;
    if (pipe) {
      this.#pipeFailed(pipe, closed);
      // An open stream would keep the channel, and so the process, alive.
      pipe.cancel();
    }
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
