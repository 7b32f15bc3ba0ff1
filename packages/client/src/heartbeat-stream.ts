// A keeper's heartbeats to one backend, on one long-lived Heartbeats stream
// (storage.proto), each message tagged with an id and answered by it. A unary
// call per heartbeat cost the keeper ~670 µs of CPU and the backend ~500-690 µs
// on this machine kind (grpc-js sets up a call, its deadline and its metadata
// every time), and keepers send several a second to every backend: probes
// and clock sync. A message on an open stream costs a fraction of that.
//
// Each heartbeat waits its own timeout; one that times out leaves the stream
// open, as a paused backend answers once it resumes. A stream that breaks
// fails every heartbeat in flight on it, and the next one opens a new stream.
import {
  type BinringError,
  fromOperationError,
  type HeartbeatAnswer__Output,
  type HeartbeatCall,
  type HeartbeatReply__Output,
  type HeartbeatRequest,
  type StorageControlClient,
  TimeoutError,
  UnavailableError,
} from "@binring/core";
import type * as grpc from "@grpc/grpc-js";

type Stream = grpc.ClientDuplexStream<HeartbeatCall, HeartbeatAnswer__Output>;

interface PendingHeartbeat {
  stream: Stream;
  resolve(reply: HeartbeatReply__Output): void;
  reject(error: BinringError): void;
  timer: NodeJS.Timeout;
}

export class HeartbeatStream {
  /** The open stream; undefined until the first heartbeat and after the stream failed. */
  #stream: Stream | undefined;
  readonly #pending = new Map<string, PendingHeartbeat>();
  #lastId = 0;

  constructor(
    private readonly control: StorageControlClient,
    private readonly address: string,
    /** The binring error a failed stream means (backend-channel.ts callFailure). */
    private readonly failure: (error: grpc.ServiceError) => BinringError,
  ) {}

  send(request: HeartbeatRequest, timeoutMs: number): Promise<HeartbeatReply__Output> {
    const id = String(++this.#lastId);
    const stream = this.#open();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new TimeoutError(`backend ${this.address} did not answer within its deadline`));
      }, timeoutMs);
      this.#pending.set(id, { stream, resolve, reject, timer });
      stream.write({ id, heartbeat: request });
    });
  }

  /** Fails what is in flight and closes the stream: it would keep the process alive. */
  close(): void {
    const stream = this.#stream;
    if (!stream) return;
    this.#failed(stream, new UnavailableError(`client for ${this.address} closed`));
    stream.cancel();
  }

  #open(): Stream {
    if (this.#stream) return this.#stream;
    const stream = this.control.Heartbeats();
    stream.on("data", (answer: HeartbeatAnswer__Output) => this.#answer(answer));
    stream.on("error", (error: grpc.ServiceError) => this.#failed(stream, this.failure(error)));
    stream.on("end", () =>
      this.#failed(stream, new UnavailableError(`backend ${this.address} ended the heartbeat stream`)),
    );
    this.#stream = stream;
    return stream;
  }

  #answer(answer: HeartbeatAnswer__Output): void {
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    clearTimeout(pending.timer);
    if (answer.error) pending.reject(fromOperationError(answer.error));
    else if (answer.reply) pending.resolve(answer.reply);
    else pending.reject(new UnavailableError(`backend ${this.address} answered a heartbeat with nothing`));
  }

  #failed(stream: Stream, failure: BinringError): void {
    if (this.#stream === stream) this.#stream = undefined;
    for (const [id, pending] of this.#pending) {
      if (pending.stream !== stream) continue;
      this.#pending.delete(id);
      clearTimeout(pending.timer);
      pending.reject(failure);
    }
  }
}
