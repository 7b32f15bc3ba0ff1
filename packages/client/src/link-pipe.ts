// One link to a backend: a TCP connection (TLS with certificates) carrying
// the Pipe stream's messages as length-prefixed frames (core link-frames.ts),
// without gRPC's HTTP/2 framing around each one. Backends forward the writes
// they coordinate on links (backend peer-links.ts). A link opens with
// LINK_MAGIC, then its TLS handshake when there is TLS: the backend tells it
// from gRPC on its one port by those bytes (backend link-listener.ts). It emits what a grpc-js Pipe stream
// emits to BackendChannel: "data" for each reply, "error" once with a
// BinringError, "end" when the backend closed the connection.
import { EventEmitter } from "node:events";
import { connect as connectTcp, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import {
  type BatchRequest,
  type BinringError,
  ConnectionRefusedError,
  certificateRole,
  decodeBatchReply,
  encodeBatchRequest,
  FrameReader,
  frame,
  InvalidArgumentError,
  LINK_MAGIC,
  parseHostPort,
  TLS_SERVER_NAME,
  type TlsFiles,
  tlsIdentity,
  UnavailableError,
} from "@binring/core";

/** How often an idle link's connection is probed, so a peer that vanished is noticed. */
const KEEPALIVE_MS = 10_000;

export class LinkPipe extends EventEmitter {
  /** The connection frames travel on: the TCP socket, or TLS over it; undefined until it is set up. */
  #socket: Socket | undefined;
  /** Frames written before the connection was set up. */
  #queued: Buffer[] = [];
  readonly #raw: Socket;
  readonly #reader = new FrameReader();
  #failed = false;

  constructor(
    readonly address: string,
    tls: TlsFiles | undefined,
  ) {
    super();
    const at = parseHostPort(address);
    if (!at)
      throw new InvalidArgumentError(`a link's address must be host:port, got ${JSON.stringify(address)}`);
    this.#raw = connectTcp(at);
    this.#raw.setNoDelay(true);
    this.#raw.setKeepAlive(true, KEEPALIVE_MS);
    this.#raw.on("error", (error: NodeJS.ErrnoException) => this.#fail(linkFailure(address, error)));
    // The magic goes first, in plaintext, and only then TLS: the backend reads it before any handshake.
    this.#raw.once("connect", () =>
      this.#raw.write(LINK_MAGIC, () => {
        if (!this.#failed) this.#ready(tls ? this.#secure(tls) : this.#raw);
      }),
    );
  }

  /** Sends one batch; one written before the connection is set up goes once it is. */
  write(request: BatchRequest): void {
    const framed = frame(encodeBatchRequest(request));
    if (this.#socket) this.#socket.write(framed);
    else this.#queued.push(framed);
  }

  /** Closes the connection; nothing more is emitted. */
  cancel(): void {
    this.#failed = true;
    this.#raw.destroy();
    this.#socket?.destroy();
  }

  #secure(tls: TlsFiles): Socket {
    const identity = tlsIdentity(tls);
    identity.reload();
    const { ca, cert, key } = identity.material;
    const secure = connectTls({
      socket: this.#raw,
      ca,
      cert,
      key,
      servername: TLS_SERVER_NAME,
      checkServerIdentity: (_name, certificate) => {
        const role = certificateRole(certificate);
        return role === "backend"
          ? undefined
          : new Error(
              `the server presented ${role ? `a ${role} certificate` : "no binring role"}, not a backend certificate`,
            );
      },
    });
    secure.on("error", (error: NodeJS.ErrnoException) => this.#fail(linkFailure(this.address, error)));
    return secure;
  }

  #ready(socket: Socket): void {
    this.#socket = socket;
    socket.on("data", (chunk: Buffer) => this.#received(chunk));
    socket.on("close", () => {
      if (!this.#failed) this.emit("end");
    });
    for (const framed of this.#queued) socket.write(framed);
    this.#queued = [];
  }

  #received(chunk: Buffer): void {
    try {
      for (const message of this.#reader.push(chunk)) this.emit("data", decodeBatchReply(message));
    } catch (error) {
      this.#fail(
        new UnavailableError(
          `backend ${this.address} sent a malformed link frame: ${(error as Error).message}`,
        ),
      );
    }
  }

  #fail(error: BinringError): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#raw.destroy();
    this.#socket?.destroy();
    this.emit("error", error);
  }
}

/** A socket error as the binring error it means; a refused connection is told apart by its errno, as nothing else says it. */
function linkFailure(address: string, error: NodeJS.ErrnoException): BinringError {
  const message = `backend ${address} unavailable: ${error.code ?? ""} ${error.message}`.replace(/\s+/g, " ");
  return error.code === "ECONNREFUSED"
    ? new ConnectionRefusedError(message, { cause: error })
    : new UnavailableError(message, { cause: error });
}
