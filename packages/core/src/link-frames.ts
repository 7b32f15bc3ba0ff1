// The framing of a link (storage.proto's Pipe messages on a plain TCP or TLS
// connection between backends): each message is its 4-byte big-endian length,
// then its bytes. A link carries exactly what a Pipe stream carries, encoded by
// the same codec (pipe-encode.ts, pipe-decode.ts), without HTTP/2 and gRPC
// framing around each message: on this project's machine a Pipe message cost
// a backend about 24 µs of CPU at each end, a link frame about 1 to 14 µs
// (docs/ARCHITECTURE.md, "Links between backends").
import { MAX_MESSAGE_BYTES } from "./limits.js";

/**
 * What a link client sends first, before TLS when there is TLS: a backend
 * tells a link from gRPC on its one port by these bytes (gRPC opens with a TLS
 * handshake or the HTTP/2 preface).
 */
export const LINK_MAGIC = Buffer.from("BRLINK/1", "ascii");
/** The largest frame a link takes: a message of the largest size gRPC takes, and room for its framing. */
export const MAX_FRAME_BYTES = MAX_MESSAGE_BYTES + 1024;

/** One message as a frame. */
export function frame(message: Uint8Array): Buffer {
  const framed = Buffer.allocUnsafe(4 + message.length);
  framed.writeUInt32BE(message.length, 0);
  framed.set(message, 4);
  return framed;
}

/** Cuts a byte stream into the messages it frames. */
export class FrameReader {
  #pending: Buffer = Buffer.alloc(0);

  /** The messages completed by `chunk`; throws RangeError on a frame longer than MAX_FRAME_BYTES. */
  push(chunk: Buffer): Buffer[] {
    let buffer = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const messages: Buffer[] = [];
    while (buffer.length >= 4) {
      const length = buffer.readUInt32BE(0);
      if (length > MAX_FRAME_BYTES)
        throw new RangeError(`link frame of ${length} bytes is over the limit of ${MAX_FRAME_BYTES}`);
      if (buffer.length < 4 + length) break;
      messages.push(buffer.subarray(4, 4 + length));
      buffer = buffer.subarray(4 + length);
    }
    this.#pending = buffer;
    return messages;
  }
}
