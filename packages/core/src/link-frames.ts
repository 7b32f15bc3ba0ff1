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

/**
 * Cuts a byte stream into the messages it frames. Chunks are kept as they
 * came until a whole frame is there, then copied once: a 4 MiB message
 * arrives in dozens of socket reads, and joining each to what came before
 * copied it dozens of times (seconds for a batch of 1 MiB writes).
 */
export class FrameReader {
  #chunks: Buffer[] = [];
  /** Bytes in #chunks. */
  #buffered = 0;

  /** The messages completed by `chunk`; throws RangeError on a frame longer than MAX_FRAME_BYTES. */
  push(chunk: Buffer): Buffer[] {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    const messages: Buffer[] = [];
    while (this.#buffered >= 4) {
      const length = this.#peekLength();
      if (length > MAX_FRAME_BYTES)
        throw new RangeError(`link frame of ${length} bytes is over the limit of ${MAX_FRAME_BYTES}`);
      if (this.#buffered < 4 + length) break;
      messages.push(this.#take(4 + length).subarray(4));
    }
    return messages;
  }

  #peekLength(): number {
    const first = this.#chunks[0]!;
    if (first.length >= 4) return first.readUInt32BE(0);
    let length = 0;
    let read = 0;
    for (const chunk of this.#chunks) {
      for (let i = 0; i < chunk.length && read < 4; i++, read++) length = length * 256 + chunk[i]!;
      if (read === 4) return length;
    }
    return length;
  }

  /** Removes the first `count` bytes, as one buffer (a copy only when they span chunks). */
  #take(count: number): Buffer {
    this.#buffered -= count;
    const first = this.#chunks[0]!;
    if (first.length >= count) {
      if (first.length === count) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(count);
      return first.subarray(0, count);
    }
    const taken = Buffer.allocUnsafe(count);
    let filled = 0;
    while (filled < count) {
      const next = this.#chunks[0]!;
      const used = Math.min(next.length, count - filled);
      next.copy(taken, filled, 0, used);
      filled += used;
      if (used === next.length) this.#chunks.shift();
      else this.#chunks[0] = next.subarray(used);
    }
    return taken;
  }
}
