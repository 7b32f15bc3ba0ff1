// The server's side of one link (client link-pipe.ts): a connection whose
// frames are the Pipe stream's messages, offered to the Storage service as
// the stream it serves (PipeStream), so a link and a gRPC Pipe are served by
// one piece of code.
import { EventEmitter } from "node:events";
import type { Duplex } from "node:stream";
import {
  type BatchReply,
  type BatchRequest__Output,
  decodeBatchRequest,
  encodeBatchReply,
  FrameReader,
  frame,
  InvalidArgumentError,
  Undecodable,
} from "@binring/core";

/** What the Storage service's Pipe handler uses of a stream: a gRPC call's, or a link's. */
export interface PipeStream {
  /** "data" brings each request (Undecodable when malformed), "end" the caller's end, "drain" room to write again. */
  on(event: "data", listener: (request: BatchRequest__Output | Undecodable) => void): unknown;
  on(event: "end" | "drain", listener: () => void): unknown;
  on(event: "error", listener: (error: unknown) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  /** False once the caller's flow control is full: wait for "drain". */
  write(reply: BatchReply): boolean;
  end(): unknown;
  /** Ends the stream with this error, for the caller to see. */
  fail(error: unknown): void;
  readonly cancelled: boolean;
  readonly writableEnded: boolean;
}

export class LinkStream extends EventEmitter implements PipeStream {
  readonly #reader = new FrameReader();
  #closed = false;

  /**
   * `first`: bytes read off the connection before it was known to be a link.
   * `fromBackend`: the caller holds a backend certificate, or the link is
   * plaintext (where no caller can be told from another).
   */
  constructor(
    private readonly connection: Duplex,
    first?: Buffer,
    readonly fromBackend = true,
  ) {
    super();
    connection.on("data", (chunk: Buffer) => this.#received(chunk));
    connection.on("end", () => this.emit("end"));
    connection.on("drain", () => this.emit("drain"));
    connection.on("error", () => undefined);
    connection.on("close", () => {
      this.#closed = true;
    });
    if (first && first.length > 0) queueMicrotask(() => this.#received(first));
    // A connection read to tell what it is was paused: a link's frames flow from now on.
    connection.resume();
  }

  get cancelled(): boolean {
    return this.#closed;
  }

  get writableEnded(): boolean {
    return this.connection.writableEnded || this.#closed;
  }

  pause(): void {
    this.connection.pause();
  }

  resume(): void {
    this.connection.resume();
  }

  write(reply: BatchReply): boolean {
    return this.connection.write(frame(encodeBatchReply(reply)));
  }

  end(): void {
    this.connection.end();
  }

  /** A link carries no status: the connection is closed, and the caller's batches fail as unavailable. */
  fail(): void {
    this.#closed = true;
    this.connection.destroy();
  }

  #received(chunk: Buffer): void {
    let messages: Buffer[];
    try {
      messages = this.#reader.push(chunk);
    } catch {
      this.fail();
      return;
    }
    for (const message of messages) {
      let request: BatchRequest__Output | Undecodable;
      try {
        request = decodeBatchRequest(message);
      } catch (error) {
        request = new Undecodable(
          new InvalidArgumentError(
            `Pipe: the request (${message.length} bytes) is not a valid binring.v1 message: ${(error as Error).message}`,
          ),
        );
      }
      this.emit("data", request);
    }
  }
}
