// Entries as they travel in a Scan reply (EntryBatch) and an Apply request
// (ApplyRequest): each one's encoded bytes, its "frame". A keeper's copy reads
// every live holder of a stretch (HAZARDS.md 5), which mostly hold the same
// entries, and applies each entry once; with frames it moves entries from
// Scan replies to Apply requests without decoding or encoding any. Decoding
// every entry from three holders and encoding it again took most of a
// keeper's CPU during a fill. Equal frames decode to equal entries, so a frame
// seen before is safely skipped; one entry encoded two ways is applied twice,
// which changes nothing.
import protobuf from "protobufjs/minimal.js";
import type { Entry, EntryKind } from "./entry.js";
import { LENGTH_DELIMITED, tag, VARINT } from "./pipe-format.js";

/** One entry as encoded in an EntryBatch or an ApplyRequest: its field's tag, length and Entry message. */
export type EntryFrame = Uint8Array;

/** `entries` is field 1 of both EntryBatch and ApplyRequest (storage.proto). */
const ENTRIES_TAG = tag(1, LENGTH_DELIMITED);
/** ApplyRequest's `epoch`. */
const EPOCH_TAG = tag(2, VARINT);

/** The frames of an encoded EntryBatch (or ApplyRequest), in order; other fields are skipped. */
export function splitEntryFrames(message: Uint8Array): EntryFrame[] {
  const reader = protobuf.Reader.create(message);
  const frames: EntryFrame[] = [];
  while (reader.pos < reader.len) {
    const start = reader.pos;
    const fieldTag = reader.uint32();
    if (fieldTag !== ENTRIES_TAG) {
      reader.skipType(fieldTag & 7);
      continue;
    }
    const length = reader.uint32();
    const end = reader.pos + length;
    if (end > reader.len)
      throw new RangeError(`invalid message: an entry of ${length} bytes runs past its end`);
    frames.push(message.subarray(start, end));
    reader.pos = end;
  }
  return frames;
}

/** EntryKind's numbers (storage.proto). */
const KIND_NUMBER: Record<EntryKind, number> = { set: 1, append: 2, remove: 3 };

/**
 * An encoded EntryBatch of the entries: the bytes protobufjs writes for
 * `{ entries: entries.map(entryToWire) }`, written field by field. A
 * backend's Scan sends every entry of what it copies this way: going through
 * the wire objects turned each clock into a decimal string and parsed it
 * back, which with the rest of the conversion cost a source as much as
 * reading the entry from Redis.
 */
export function encodeEntryBatch(entries: readonly Entry[]): Buffer {
  const writer = protobuf.Writer.create();
  for (const { bin, key, kind, value, stamp } of entries) {
    writer.uint32(ENTRIES_TAG).fork();
    writer.uint32(tag(1, LENGTH_DELIMITED)).string(bin);
    writer.uint32(tag(2, LENGTH_DELIMITED)).string(key);
    writer.uint32(tag(3, VARINT)).int32(KIND_NUMBER[kind]);
    writer.uint32(tag(4, LENGTH_DELIMITED)).string(value);
    writer.uint32(tag(5, LENGTH_DELIMITED)).fork();
    writer.uint32(tag(1, VARINT)).uint64(uint64Of(stamp.clock));
    writer.uint32(tag(2, LENGTH_DELIMITED)).string(stamp.writer);
    writer.uint32(tag(3, VARINT)).uint32(stamp.seq);
    writer.ldelim().ldelim();
  }
  return writer.finish() as Buffer;
}

/** A uint64 as protobufjs' writer takes it: a number while exact, else its two 32-bit halves. */
function uint64Of(value: bigint): number | protobuf.Long {
  if (value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
  return { low: Number(value & 0xffffffffn), high: Number(value >> 32n), unsigned: true } as protobuf.Long;
}

/** An encoded ApplyRequest of the frames under the view at `epoch`. */
export function applyRequestOfFrames(frames: readonly EntryFrame[], epoch: bigint): Buffer {
  const writer = protobuf.Writer.create();
  if (epoch > 0n) {
    writer.uint32(EPOCH_TAG);
    writer.uint64(uint64Of(epoch));
  }
  return Buffer.concat([...frames, writer.finish()]);
}
