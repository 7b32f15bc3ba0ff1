// One connection to one backend. Operations issued in the same event-loop turn
// are coalesced into a single Batch call (as ioredis auto-pipelines commands),
// because one unary call per operation caps a backend near 4k ops/s while a
// batch of 64 carries ~110k (shared/PERFORMANCE.md).
import {
  type BinringError,
  bigintToWire,
  type Entry,
  entryFromWire,
  entryToWire,
  errorFromStatus,
  fromServiceError,
  type HeartbeatReply__Output,
  type HeartbeatRequest,
  loadProtocol,
  type Operation,
  type OperationResult__Output,
  type RingRange,
  TimeoutError,
  UnavailableError,
  type StorageClient as WireStorageClient,
  wireToBigint,
} from "@binring/core";
import * as grpc from "@grpc/grpc-js";

export interface BackendChannelOptions {
  /** Deadline of one call. @default 10000 */
  callTimeoutMs?: number;
  /** Most operations in one Batch call. @default 512 */
  maxBatchSize?: number;
}

/** Reconnect quickly after a backend restarts instead of grpc-js' default backoff of up to 2 minutes. */
const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  "grpc.initial_reconnect_backoff_ms": 100,
  "grpc.max_reconnect_backoff_ms": 1000,
  "grpc.max_receive_message_length": 64 * 1024 * 1024,
  "grpc.keepalive_time_ms": 10_000,
  "grpc.keepalive_timeout_ms": 5_000,
};

interface PendingOperation {
  operation: Operation;
  resolve(result: OperationResult__Output): void;
  reject(error: BinringError): void;
}

export class BackendChannel {
  readonly #client: WireStorageClient;
  readonly #callTimeoutMs: number;
  readonly #maxBatchSize: number;
  #queue: PendingOperation[] = [];
  #flushScheduled = false;
  #closed = false;

  constructor(
    readonly address: string,
    options: BackendChannelOptions = {},
  ) {
    const Storage = loadProtocol().Storage;
    // grpc-js connects lazily: creating the client never fails, even if the backend is not up yet.
    this.#client = new Storage(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS);
    this.#callTimeoutMs = options.callTimeoutMs ?? 10_000;
    this.#maxBatchSize = options.maxBatchSize ?? 512;
  }

  #deadline(timeoutMs = this.#callTimeoutMs): Date {
    return new Date(Date.now() + timeoutMs);
  }

  /** Runs one operation (batched with its neighbours); rejects with the operation's own error. */
  execute(operation: Operation): Promise<OperationResult__Output> {
    if (this.#closed) return Promise.reject(new UnavailableError(`client for ${this.address} is closed`));
    return new Promise((resolve, reject) => {
      this.#queue.push({ operation, resolve, reject });
      if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#flushScheduled = false;
    const queue = this.#queue;
    this.#queue = [];
    for (let i = 0; i < queue.length; i += this.#maxBatchSize) {
      this.#send(queue.slice(i, i + this.#maxBatchSize));
    }
  }

  #send(batch: PendingOperation[]): void {
    this.#client.Batch(
      { operations: batch.map((p) => p.operation) },
      { deadline: this.#deadline() },
      (error, reply) => {
        if (error || !reply) {
          const failure = error ? fromServiceError(error, this.address) : new UnavailableError("empty reply");
          for (const pending of batch) pending.reject(failure);
          return;
        }
        batch.forEach((pending, i) => {
          const result = reply.results[i];
          if (!result) pending.reject(new UnavailableError(`backend ${this.address} sent too few results`));
          else if (result.result === "error" && result.error) {
            pending.reject(errorFromStatus(result.error.code, result.error.message));
          } else pending.resolve(result);
        });
      },
    );
  }

  /** Idempotent apply of stamped entries; returns the backend's clock afterwards. */
  apply(entries: readonly Entry[], epoch: bigint, timeoutMs?: number): Promise<bigint> {
    return new Promise((resolve, reject) => {
      this.#client.Apply(
        { entries: entries.map(entryToWire), epoch: bigintToWire(epoch) },
        { deadline: this.#deadline(timeoutMs) },
        (error, reply) =>
          error || !reply ? reject(this.#failure(error)) : resolve(wireToBigint(reply.clock)),
      );
    });
  }

  /** Streams every entry of the bins in the ranges, batch by batch. */
  async *scan(ranges: readonly RingRange[], batchSize: number, timeoutMs?: number): AsyncIterable<Entry[]> {
    const stream = this.#client.Scan(
      { ranges: [...ranges], batchSize },
      { deadline: this.#deadline(timeoutMs) },
    );
    try {
      for await (const message of stream) {
        yield (message as { entries: Parameters<typeof entryFromWire>[0][] }).entries.map((e) =>
          entryFromWire(e),
        );
      }
    } catch (error) {
      throw this.#failure(error as grpc.ServiceError);
    } finally {
      stream.cancel();
    }
  }

  drop(ranges: readonly RingRange[], timeoutMs?: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#client.Drop({ ranges: [...ranges] }, { deadline: this.#deadline(timeoutMs) }, (error, reply) =>
        error || !reply ? reject(this.#failure(error)) : resolve(Number(reply.bins)),
      );
    });
  }

  heartbeat(request: HeartbeatRequest, timeoutMs?: number): Promise<HeartbeatReply__Output> {
    return new Promise((resolve, reject) => {
      this.#client.Heartbeat(request, { deadline: this.#deadline(timeoutMs) }, (error, reply) =>
        error || !reply ? reject(this.#failure(error)) : resolve(reply),
      );
    });
  }

  #failure(error: grpc.ServiceError | null): BinringError {
    if (!error) return new UnavailableError(`backend ${this.address} sent an empty reply`);
    if (error.code === grpc.status.DEADLINE_EXCEEDED) {
      return new TimeoutError(`backend ${this.address} did not answer within its deadline`);
    }
    return fromServiceError(error, this.address);
  }

  close(): void {
    this.#closed = true;
    for (const pending of this.#queue)
      pending.reject(new UnavailableError(`client for ${this.address} closed`));
    this.#queue = [];
    this.#client.close();
  }
}
