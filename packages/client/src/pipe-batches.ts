// The data operations to one backend. Operations issued in the same event-loop
// turn are coalesced into one batch (as ioredis auto-pipelines commands), and
// batches travel on one long-lived pipe — a gRPC Pipe stream or a link
// (link-pipe.ts) — answered by id: one unary call per operation caps a backend
// near 4k ops/s, while stream messages and batches cost a fraction of that per
// operation (shared/PERFORMANCE.md).
//
// While a batch is unanswered, the next one is held until the answer comes
// (Nagle's rule), up to `maxHoldMs`: without that, a write's continuations
// trickled out a few operations per message (3.7 on average at 64 concurrent
// sets on 6 backends); with it, batches doubled and set throughput rose
// 15-30%. One operation alone is never held: nothing is in flight then.
import {
  type BatchReply__Output,
  type BatchRequest,
  type BinringError,
  fromOperationError,
  MESSAGE_BUDGET_BYTES,
  type Operation,
  type OperationResult__Output,
  TimeoutError,
  TurnBatch,
  UnavailableError,
} from "@binring/core";
import { operationBytes } from "./operation-bytes.js";

/** Longest a notice (`notify`) waits for a batch to ride with before it is sent alone. */
export const NOTICE_DELAY_MS = 10;

/** A pipe as the batches use it: gRPC's Pipe stream, or a link's (link-pipe.ts). */
export interface Pipe {
  write(request: BatchRequest): unknown;
  cancel(): void;
}

/** What a pipe reports back: each reply, and once its failure (its end included). */
export interface PipeEvents {
  data(reply: BatchReply__Output): void;
  failed(error: BinringError): void;
}

export interface PipeBatchesOptions {
  /** How long a batch waits for its answer unless an operation says. */
  callTimeoutMs: number;
  /** Most operations in one batch; a batch also stops at MESSAGE_BUDGET_BYTES. */
  maxBatchSize: number;
  /** Longest operations wait for the batch in flight to be answered before they are sent anyway. */
  maxHoldMs?: number;
}

interface PendingOperation {
  operation: Operation;
  /** How long its caller waits; the call timeout when undefined. */
  timeoutMs: number | undefined;
  /** An upper bound on the operation's encoded size. */
  bytes: number;
  resolve(result: OperationResult__Output): void;
  reject(error: BinringError): void;
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

export class PipeBatches {
  readonly #queue: TurnBatch<PendingOperation>;
  /** Notices waiting to ride with the next batch (`notify`), and the timer that sends them alone. */
  #notices: PendingOperation[] = [];
  #noticeTimer: NodeJS.Timeout | undefined;
  #closed = false;
  /** The open pipe; undefined until the first batch and after the pipe failed. */
  #pipe: Pipe | undefined;
  readonly #inFlight = new Map<number, InFlightBatch>();
  #lastBatchId = 0;
  /** Batches and operations sent on pipes so far: their ratio is the mean batch size. */
  readonly sent = { batches: 0, operations: 0 };

  constructor(
    readonly address: string,
    /** Opens a pipe to the backend whose replies and failure come back through `events`. */
    private readonly openPipe: (events: PipeEvents) => Pipe,
    private readonly options: PipeBatchesOptions,
  ) {
    this.#queue = new TurnBatch((queue) => this.#sendInBatches(queue), {
      hold: () => this.#inFlight.size > 0,
      maxHoldMs: options.maxHoldMs,
    });
  }

  /**
   * Runs one operation (batched with its neighbours); rejects with the
   * operation's own error, or TimeoutError when its batch is not answered
   * within the longest wait any of its operations asked for (`timeoutMs`, or
   * the call timeout).
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
   * one that cannot be delivered is dropped. For what the backend also learns
   * another way, when it matters, and would cost a message of its own
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
        i - start === this.options.maxBatchSize ||
        (i > start && bytes + queue[i]!.bytes > MESSAGE_BUDGET_BYTES);
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
    const pipe = this.#open();
    this.#lastBatchId = (this.#lastBatchId + 1) >>> 0;
    const id = this.#lastBatchId;
    let waitMs = 0;
    for (const pending of operations)
      waitMs = Math.max(waitMs, pending.timeoutMs ?? this.options.callTimeoutMs);
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

  #open(): Pipe {
    if (this.#pipe) return this.#pipe;
    const pipe: Pipe = this.openPipe({
      data: (reply) => this.#answer(reply),
      failed: (error) => this.#pipeFailed(pipe, error),
    });
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

  /** Fails every batch still waiting on a pipe that broke; the next batch opens a new one. */
  #pipeFailed(pipe: Pipe, failure: BinringError): void {
    if (this.#pipe === pipe) this.#pipe = undefined;
    for (const [id, batch] of this.#inFlight) {
      if (batch.pipe === pipe) this.#failBatch(id, failure);
    }
  }

  /** Fails what is queued and in flight with `closed`, and cancels the pipe: an open one would keep the process alive. */
  close(closed: BinringError): void {
    this.#closed = true;
    this.#takeNotices();
    for (const pending of this.#queue.take()) pending.reject(closed);
    const pipe = this.#pipe;
    if (pipe) {
      this.#pipeFailed(pipe, closed);
      pipe.cancel();
    }
  }
}
