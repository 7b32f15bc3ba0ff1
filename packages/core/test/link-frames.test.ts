// A link's framing (link-frames.ts): messages come out whole however the
// byte stream is cut, and a frame past the limit is refused, not buffered.
import { describe, expect, it } from "vitest";
import { FrameReader, frame, MAX_FRAME_BYTES } from "../src/link-frames.js";

describe("link frames", () => {
  it("gives back each message whole, whatever chunks the bytes arrive in", () => {
    const messages = [
      Buffer.from("a"),
      Buffer.alloc(0),
      Buffer.from("ключ 🦊".repeat(50)),
      Buffer.alloc(70_000, 7),
    ];
    const stream = Buffer.concat(messages.map(frame));
    for (const size of [1, 3, 4, 5, 999, stream.length]) {
      const reader = new FrameReader();
      const out: Buffer[] = [];
      for (let at = 0; at < stream.length; at += size)
        out.push(...reader.push(stream.subarray(at, at + size)));
      expect(out.map((m) => m.toString("hex"))).toEqual(messages.map((m) => m.toString("hex")));
    }
  });

  it("refuses a frame longer than MAX_FRAME_BYTES as soon as its length arrives", () => {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(MAX_FRAME_BYTES + 1);
    expect(() => new FrameReader().push(header)).toThrow(
      `link frame of ${MAX_FRAME_BYTES + 1} bytes is over the limit`,
    );
  });
});
