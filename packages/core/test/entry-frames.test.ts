// Entries kept encoded between a Scan reply and an Apply request (entry-frames.ts):
// the frames of a message are its entries' bytes, and an Apply request built
// from them decodes to the same entries, under any epoch up to 2^64 - 1. A
// Scan reply written field by field is byte for byte what protobufjs writes.
import { describe, expect, it } from "vitest";
import {
  applyRequestOfFrames,
  type Entry,
  encodeEntryBatch,
  entryFromWire,
  entryToWire,
  loadProtocol,
  splitEntryFrames,
} from "../src/index.js";

const { Scan, Apply } = loadProtocol().StorageControl.service;

const entries: Entry[] = [
  { bin: "b", key: "k", kind: "set", value: "v", stamp: { clock: 1n, writer: "0123456789abcdef", seq: 2 } },
  {
    bin: "ü",
    key: "",
    kind: "append",
    value: "x".repeat(300),
    stamp: { clock: 2n ** 64n - 1n, writer: "w", seq: 0 },
  },
  { bin: "b", key: "k", kind: "remove", value: "", stamp: { clock: 0n, writer: "", seq: 4294967295 } },
];

describe("entry frames", () => {
  it("writes a Scan reply field by field in the bytes protobufjs writes, whatever the lengths of its fields", () => {
    const varied: Entry[] = [
      ...entries,
      {
        ...entries[0]!,
        value: "é".repeat(70_000),
        stamp: { clock: 128n, writer: "0123456789abcdef", seq: 127 },
      },
      {
        ...entries[0]!,
        key: "k".repeat(16_383),
        stamp: { clock: 2n ** 63n, writer: "0123456789abcdef", seq: 128 },
      },
      // Around the largest safe integer, and the largest clock.
      ...[2n ** 53n - 1n, 2n ** 53n, 2n ** 56n - 1n, 2n ** 56n, 2n ** 64n - 1n].map((clock) => ({
        ...entries[0]!,
        stamp: { clock, writer: "0123456789abcdef", seq: 2 ** 28 },
      })),
    ];
    for (const entry of varied) {
      const expected = Scan.responseSerialize({ entries: [entryToWire(entry)] });
      expect(encodeEntryBatch([entry]).equals(expected), entry.key.slice(0, 3)).toBe(true);
    }
    expect(
      encodeEntryBatch(varied).equals(Scan.responseSerialize({ entries: varied.map(entryToWire) })),
    ).toBe(true);
    expect(encodeEntryBatch([])).toHaveLength(0);
  });

  it("splits a Scan reply into one frame per entry, and an Apply request of them decodes to the same entries", () => {
    const reply = Scan.responseSerialize({ entries: entries.map(entryToWire) });
    const frames = splitEntryFrames(reply);
    expect(frames).toHaveLength(3);
    expect(Buffer.concat(frames).equals(reply)).toBe(true);
    for (const epoch of [0n, 7n, 2n ** 32n, 2n ** 64n - 1n]) {
      const request = Apply.requestDeserialize(applyRequestOfFrames(frames, epoch));
      expect(request.entries.map((entry) => entryFromWire(entry))).toEqual(entries);
      expect(request.epoch).toBe(epoch.toString());
    }
  });

  it("gives equal entries equal frames, and different entries different ones", () => {
    const [first, second, third] = splitEntryFrames(
      Scan.responseSerialize({ entries: [entries[0]!, entries[0]!, entries[2]!].map(entryToWire) }),
    );
    expect(Buffer.from(first!).equals(second!)).toBe(true);
    expect(Buffer.from(first!).equals(third!)).toBe(false);
  });

  it("skips fields other than the entries, and refuses an entry cut short", () => {
    const request = Apply.requestSerialize({ entries: [entryToWire(entries[0]!)], epoch: "9" });
    expect(splitEntryFrames(request)).toHaveLength(1);
    expect(splitEntryFrames(new Uint8Array())).toEqual([]);
    expect(() => splitEntryFrames(request.subarray(0, 10))).toThrow(/runs past/);
  });
});
